/**
 * Customer data encrypted in Temporal, as operators see it. With payload keys, `temporal workflow
 * show` on an order shows no wallet address, IP or user agent; with the broker's codec endpoint it
 * shows them, and so does the real Temporal Web UI (the dev server's, started with
 * --ui-codec-endpoint) in Chromium, decoding through the endpoint. The UI cannot send the codec's
 * token itself: as docs/operations.md says, a proxy in front of the endpoint adds it; here the
 * browser's request interception plays that proxy.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { chromium, type BrowserContext } from 'playwright-core';
import type { LocalStack } from '../../src/dev/local-stack';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { chromiumPath } from '../helpers/chromium';
import { TEST_ENCRYPTION_KEYS } from '../helpers/config';
import { draftOrder, offerThenOrder } from '../helpers/orders';
import { freePort } from '../helpers/ports';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const CODEC_TOKEN = 'codec-token-for-the-ui-test-0123456789abcdef';
const CUSTOMER = { ip: '203.0.113.77', user_agent: 'Mozilla/5.0 (EncryptedOrderTest)' };

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let browser: BrowserContext;
let userDataDir: string;
let temporalAddress: string;
let uiUrl: string;
let codecUrl: string;

beforeAll(async () => {
  const [apiPort, uiPort, temporalPort] = await Promise.all([freePort(), freePort(), freePort()]);
  codecUrl = `http://127.0.0.1:${apiPort}/codec`;
  uiUrl = `http://127.0.0.1:${uiPort}`;
  temporalAddress = `127.0.0.1:${temporalPort}`;
  userDataDir = mkdtempSync(join(tmpdir(), 'onramp-chromium-'));
  [env, browser] = await Promise.all([
    startTemporal({ port: temporalPort, ui: true, uiPort, extraArgs: ['--ui-codec-endpoint', codecUrl] }),
    chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(),
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    }),
  ]);
  stack = await startTestStack(env, {
    apiPort,
    env: {
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      CODEC_AUTH_TOKEN: CODEC_TOKEN,
      CODEC_CORS_ORIGINS: `${uiUrl},http://localhost:${uiPort}`,
    },
  });
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  await env?.teardown();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

/** The CLI as a child process: asynchronously, since the codec endpoint it calls is served by this process. */
async function workflowShow(workflowId: string, codec: boolean): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.env.TEMPORAL_CLI_PATH!,
    [
      'workflow',
      'show',
      '--address',
      temporalAddress,
      '--namespace',
      'default',
      '--workflow-id',
      workflowId,
      '--output',
      'json',
      ...(codec ? ['--codec-endpoint', codecUrl, '--codec-auth', `Bearer ${CODEC_TOKEN}`] : []),
    ],
    { encoding: 'utf8' },
  );
  return stdout;
}

/** Every base64 field of the CLI's JSON history (payload data and metadata values), decoded, one per line. */
function payloadTexts(json: string): string {
  const texts: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (/^[A-Za-z0-9+/]+=*$/.test(value) && value.length % 4 === 0) texts.push(Buffer.from(value, 'base64').toString('utf8'));
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(JSON.parse(json));
  return texts.join('\n');
}

test('the CLI shows no customer data without the codec endpoint, and all of it with it', async () => {
  const draft = { ...draftOrder(), ...CUSTOMER };
  const { status, body: order } = await offerThenOrder(stack.apiUrl, draft);
  expect(status).toBe(200);
  const workflowId = orderWorkflowId(order.id);

  // The CLI's JSON carries each payload's metadata and data in base64: read them as an operator's tool would.
  const raw = payloadTexts(await workflowShow(workflowId, false));
  expect(raw).toContain('binary/encrypted');
  for (const secret of [draft.wallet_address, CUSTOMER.ip, CUSTOMER.user_agent, draft.external_user_id]) expect(raw).not.toContain(secret);

  const decoded = payloadTexts(await workflowShow(workflowId, true));
  expect(decoded).not.toContain('binary/encrypted');
  for (const visible of [draft.wallet_address, CUSTOMER.ip, CUSTOMER.user_agent]) expect(decoded).toContain(visible);
});

test('the Web UI shows the order decoded through the codec endpoint', async () => {
  const draft = { ...draftOrder(), ...CUSTOMER };
  const { body: order } = await offerThenOrder(stack.apiUrl, draft);
  const page = await browser.newPage();
  const codecCalls: number[] = [];
  // The proxy in front of the codec endpoint: it adds the token the UI cannot send.
  await page.route(`${codecUrl}/**`, async (route) => {
    const response = await route.fetch({ headers: { ...route.request().headers(), authorization: `Bearer ${CODEC_TOKEN}` } });
    codecCalls.push(response.status());
    await route.fulfill({ response });
  });
  try {
    await page.goto(`${uiUrl}/namespaces/default/workflows/${orderWorkflowId(order.id)}`);
    await page.getByText(draft.wallet_address).first().waitFor({ timeout: 45_000 });
    expect(codecCalls.length).toBeGreaterThan(0);
    expect(codecCalls.every((s) => s === 200)).toBe(true);
  } finally {
    await page.close();
  }
});
