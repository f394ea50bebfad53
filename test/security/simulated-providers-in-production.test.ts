/**
 * Simulated providers are never silently live in production (issue 16). With NODE_ENV=production a
 * simulator host (SANDBOX_URL) needs the explicit SANDBOX_IN_PRODUCTION=true and a private
 * SIMULATOR_SECRET, from which every simulated provider's credentials derive; the API, the worker
 * and the simulator host refuse to start otherwise, naming the variable. So the development
 * credentials published in this repository sign nothing such a broker accepts, while its own
 * simulator host, given the same secret, does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ConfigError, DEV_SANDBOX_API_KEY, DEV_SANDBOX_WEBHOOK_SECRET, loadConfig, type AppConfig } from '../../src/config';
import { startLocalStack, type LocalStack } from '../../src/dev/local-stack';
import { createLogger } from '../../src/logging';
import { MOONPAY_SIMULATOR_CREDENTIALS } from '../../src/providers/moonpay/config';
import { RAMP_SIMULATOR_WEBHOOK_URL_SECRET } from '../../src/providers/ramp/config';
import { TRANSAK_SIMULATOR_CREDENTIALS } from '../../src/providers/transak/config';
import { moonpayWebhookSignature } from '../../src/simulators/moonpay/signing';
import { TEST_ENCRYPTION_KEYS, TEST_RANKING_CUSTOMER_KEY } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { checkout, draftOrder, waitForStatus, type OrderDraft } from '../helpers/orders';
import { freePort } from '../helpers/ports';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { PROVIDER_TEST_KITS } from '../helpers/providers';
import { startTemporal, workflowBundle } from '../helpers/temporal';
import { signedSandboxWebhook } from '../helpers/webhooks';

const ROOT = resolve(__dirname, '..', '..');
/** Private to this run, as an operator's would be. */
const SIMULATOR_SECRET = randomBytes(32).toString('hex');
/** Private too: production refuses the development API key (test/security/published-credentials.test.ts). */
const API_KEY = `obk_live_${randomBytes(16).toString('hex')}`;
const PRODUCTION = {
  NODE_ENV: 'production',
  ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
  RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
  LOG_LEVEL: 'silent',
  ONRAMP_API_KEY: API_KEY,
};
const OPTED_IN = { ...PRODUCTION, SANDBOX_URL: 'http://127.0.0.1:4010', SANDBOX_IN_PRODUCTION: 'true' };

function configProblems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

interface EntryPoint {
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Its exit code; 'running' when it was still running after 45 s (it is then killed). */
  exited: Promise<number | null | 'running'>;
  stop(): void;
}

const children: ChildProcess[] = [];
afterAll(() => children.forEach((child) => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));

/** A process entry point (src/api/main.ts, ...) run as the image runs it, with only the given environment. */
function runEntryPoint(entry: string, env: Record<string, string>): EntryPoint {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let timer: NodeJS.Timeout | undefined;
  const tooLong = new Promise<'running'>((done) => (timer = setTimeout(() => done('running'), 45_000)));
  return {
    output: () => output,
    exited: Promise.race([exit, tooLong]).then((result) => {
      clearTimeout(timer);
      if (result === 'running') child.kill('SIGKILL');
      return result;
    }),
    stop: () => child.kill('SIGTERM'),
  };
}

describe('start-up in production', () => {
  test('SANDBOX_URL without SANDBOX_IN_PRODUCTION=true: refused, naming SANDBOX_IN_PRODUCTION', async () => {
    for (const optIn of [{}, { SANDBOX_IN_PRODUCTION: 'false' }]) {
      expect(configProblems({ ...PRODUCTION, SANDBOX_URL: 'http://sandbox:4010', SIMULATOR_SECRET, ...optIn })).toEqual([
        expect.stringMatching(/^SANDBOX_IN_PRODUCTION: SANDBOX_URL is set in production/),
      ]);
    }
    const api = runEntryPoint('src/api/main.ts', { ...PRODUCTION, SANDBOX_URL: 'http://sandbox:4010', SIMULATOR_SECRET });
    expect(await api.exited).toBe(1);
    expect(api.output()).toMatch(/^api: Invalid configuration:\n {2}- SANDBOX_IN_PRODUCTION: /m);
  });

  test('the opt-in without a private SIMULATOR_SECRET: refused, naming SIMULATOR_SECRET', () => {
    expect(configProblems(OPTED_IN)).toEqual([expect.stringMatching(/^SIMULATOR_SECRET: required in production/)]);
    expect(configProblems({ ...OPTED_IN, SIMULATOR_SECRET: 'too-short' })).toEqual([expect.stringMatching(/^SIMULATOR_SECRET: /)]);
    // A development credential of the repository is long enough, and still refused.
    expect(configProblems({ ...OPTED_IN, SIMULATOR_SECRET: RAMP_SIMULATOR_WEBHOOK_URL_SECRET })).toEqual([
      expect.stringMatching(/^SIMULATOR_SECRET: a value published in this repository/),
    ]);
  });

  test("the opt-in with the sandbox's development key or webhook secret: refused, naming each", async () => {
    const env = { ...OPTED_IN, SIMULATOR_SECRET, SANDBOX_API_KEY: DEV_SANDBOX_API_KEY, SANDBOX_WEBHOOK_SECRET: DEV_SANDBOX_WEBHOOK_SECRET };
    expect(configProblems(env).map((problem) => problem.split(':')[0])).toEqual(['SANDBOX_API_KEY', 'SANDBOX_WEBHOOK_SECRET']);
    const worker = runEntryPoint('src/worker/main.ts', env);
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain('worker: Invalid configuration:\n  - SANDBOX_API_KEY: ');
    expect(worker.output()).toContain('\n  - SANDBOX_WEBHOOK_SECRET: ');
  });

  test('the simulator host refuses to start on the repository credentials, naming the variable', async () => {
    const simulator = runEntryPoint('src/simulators/main.ts', {
      NODE_ENV: 'production',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      SIMULATOR_PORT: '0',
    });
    expect(await simulator.exited).toBe(1);
    expect(simulator.output()).toMatch(/^simulator: Invalid configuration:\n {2}- SIMULATOR_SECRET: required in production/m);
  });
});

describe('with SANDBOX_IN_PRODUCTION=true and a private SIMULATOR_SECRET', () => {
  let env: TestWorkflowEnvironment;
  let stack: LocalStack;

  beforeAll(async () => {
    env = await startTemporal();
    const config = loadConfig({ ...OPTED_IN, SIMULATOR_SECRET });
    stack = await startLocalStack({
      config: { ...config, temporal: { ...config.temporal, taskQueue: `test-${randomUUID()}` } },
      client: env.client,
      connection: env.nativeConnection,
      logger: createLogger('silent', 'test'),
      settleDelayMs: 50,
      workflowBundle: await workflowBundle(),
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await env?.teardown();
  });

  /** The configuration the broker runs on: a provider's simulated credentials. */
  function simulated<C extends keyof AppConfig['providers']>(code: C) {
    const resolution = stack.config.providers[code];
    if (resolution.mode !== 'simulator') throw new Error(`${code} is not simulated`);
    return resolution.config as Extract<AppConfig['providers'][C], { config: unknown }>['config'];
  }

  async function postWebhook(code: string, headers: Record<string, string>, body: string) {
    const response = await fetch(`${stack.apiUrl}/api/webhooks/${code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
  }

  /** An offer, then the order; from this machine's address, which Mercuryo needs. */
  async function orderAt(draft: OrderDraft) {
    const ip = '127.0.0.1';
    const query = new URLSearchParams({
      external_user_id: draft.external_user_id,
      currency_from: String(draft.from_currency),
      currency_to: String(draft.to_currency),
      amount_from: draft.from_amount,
      country: draft.country_code,
      payment_method: draft.payment_method,
      ip,
      ...(draft.state_code ? { state: draft.state_code } : {}),
    });
    const offers = await callApi(stack.apiUrl, `/api/on_ramp/offers?${query.toString()}`, { apiKey: API_KEY });
    expect(offers.body).toHaveProperty(draft.provider_code);
    const created = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: { ...draft, ip }, apiKey: API_KEY });
    expect(created.status).toBe(200);
    return created.body as { id: string; redirect_url: string; extras: { provider_order_id: string } };
  }

  const orderStatus = async (code: string, id: string) =>
    (await callApi(stack.apiUrl, `/api/on_ramp/orders/${code}?code=${id}`, { apiKey: API_KEY })).body.status as string;

  test("a sandbox webhook signed with the repository's development secret is refused: 401 invalid_signature", async () => {
    const order = await orderAt(draftOrder());
    const providerOrder = { ...stack.simulator.orders.get(order.extras.provider_order_id), status: 'COMPLETED' };

    const forged = signedSandboxWebhook(DEV_SANDBOX_WEBHOOK_SECRET, providerOrder);
    const refused = await postWebhook('sandbox', { 'sandbox-signature': forged.signature }, forged.body);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'invalid_signature' });
    expect(await orderStatus('sandbox', order.id)).toBe('created');

    // The same event under the broker's own (derived) secret is accepted: only the key was wrong.
    const signed = signedSandboxWebhook(simulated('sandbox').webhookSecret, providerOrder);
    expect((await postWebhook('sandbox', { 'sandbox-signature': signed.signature }, signed.body)).status).toBe(200);
  });

  test("a MoonPay webhook signed with the simulator's repository webhook key is refused: 401 invalid_signature", async () => {
    const order = await orderAt(journeyOrder(JOURNEYS.find((j) => j.code === 'moonpay')!));
    // The customer opens MoonPay's widget, which creates the transaction (and the simulator's own
    // webhook makes the order pending); the broker's secret key reads the transaction back.
    expect((await fetch(order.redirect_url)).status).toBe(200);
    await waitForStatus(stack.apiUrl, 'moonpay', order.id, 'pending', undefined, API_KEY);
    const { secretKey, webhookKey, apiUrl } = simulated('moonpay');
    const transactions = await eventually(async () => {
      const response = await fetch(`${apiUrl}/v1/transactions/ext/${order.id}`, { headers: { authorization: `Api-Key ${secretKey}` } });
      return response.ok ? ((await response.json()) as Record<string, unknown>[]) : undefined;
    }, 'the MoonPay transaction');
    const body = JSON.stringify({
      type: 'transaction_updated',
      data: { ...transactions[0], status: 'completed', cryptoTransactionId: `0x${'ab'.repeat(32)}` },
    });
    const now = Math.floor(Date.now() / 1000);

    expect(webhookKey).not.toBe(MOONPAY_SIMULATOR_CREDENTIALS.webhookKey);
    const refused = await postWebhook(
      'moonpay',
      { 'moonpay-signature-v2': moonpayWebhookSignature(MOONPAY_SIMULATOR_CREDENTIALS.webhookKey, body, now) },
      body,
    );
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'invalid_signature' });
    expect(await orderStatus('moonpay', order.id)).toBe('pending');

    // The same body under the broker's own (derived) webhook key is accepted: only the key was wrong.
    expect((await postWebhook('moonpay', { 'moonpay-signature-v2': moonpayWebhookSignature(webhookKey, body, now) }, body)).status).toBe(
      200,
    );
  });

  test.each([{ code: 'sandbox' as const }, ...JOURNEYS])(
    '$code: the simulator host built with the same secret signs webhooks the broker accepts, and the order completes',
    async (journey) => {
      // What signs the provider's webhooks as published in this repository is not what the broker trusts.
      expect(simulated(journey.code)).not.toMatchObject(PROVIDER_TEST_KITS[journey.code].publishedSigningCredentials);
      const order = await orderAt('market' in journey ? journeyOrder(journey) : draftOrder());
      expect((await fetch(order.redirect_url)).status).toBe(200);
      expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);
      await waitForStatus(stack.apiUrl, journey.code, order.id, 'complete', undefined, API_KEY);
      const answers = stack.simulators.get(journey.code).webhooks.attempts.map((attempt) => attempt.httpStatus);
      expect(answers).toContain(200);
      expect(answers.filter((status) => status !== 200)).toEqual([]);
    },
  );

  test('the simulator host process, given the same secret, derives the credentials the broker uses and refuses the published ones', async () => {
    const port = await freePort();
    const simulator = runEntryPoint('src/simulators/main.ts', {
      NODE_ENV: 'production',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      SIMULATOR_SECRET,
      SIMULATOR_HOST: '127.0.0.1',
      SIMULATOR_PORT: String(port),
      BROKER_URL: stack.apiUrl,
    });
    try {
      await eventually(
        () => Promise.resolve(simulator.output().includes('provider simulators listening') ? true : undefined),
        'the simulator host',
        30_000,
      );
      const base = `http://127.0.0.1:${port}`;
      const sandbox = (key: string) => fetch(`${base}/sandbox/v1/currencies`, { headers: { authorization: `Bearer ${key}` } });
      expect((await sandbox(simulated('sandbox').apiKey)).status).toBe(200);
      expect((await sandbox(DEV_SANDBOX_API_KEY)).status).toBe(401);
      const moonpay = (key: string) =>
        fetch(`${base}/moonpay/v1/transactions/ext/${randomUUID()}`, { headers: { authorization: `Api-Key ${key}` } });
      // Authenticated, and no such transaction.
      expect((await moonpay(simulated('moonpay').secretKey)).status).toBe(404);
      expect((await moonpay(MOONPAY_SIMULATOR_CREDENTIALS.secretKey)).status).toBe(401);
      // Transak signs its webhooks with the partner's access token: the published secret gets none.
      const token = (apiSecret: string) =>
        fetch(`${base}/transak/partners/api/v2/refresh-token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-secret': apiSecret },
          body: JSON.stringify({ apiKey: TRANSAK_SIMULATOR_CREDENTIALS.apiKey }),
        });
      expect((await token(simulated('transak').apiSecret)).status).toBe(200);
      expect((await token(TRANSAK_SIMULATOR_CREDENTIALS.apiSecret)).status).toBe(400);
    } finally {
      simulator.stop();
      await simulator.exited;
    }
  });
});
