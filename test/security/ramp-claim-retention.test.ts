/**
 * Attack: one Ramp purchase, two orders. A customer makes two orders with the same wallet, asset and
 * amount, pays one, keeps Ramp's genuinely signed RELEASED body, and posts it to the other order's
 * webhook URL once the purchase's claim is gone: the namespace's retention deletes a closed
 * workflow after 1 to 3 days, while an unpaid order listens for its payment window and grace (8 days
 * by default). The claim must hold as long as any order could accept the purchase; the same
 * purchase without its view token is the same purchase; the view token (a capability) appears in
 * no claim workflow; and the API does not start on a namespace whose retention its claims cannot live with.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { msToTs, tsToMs } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildApi } from '../../src/api/server';
import { providerOrderClaimId } from '../../src/orders/claims';
import type { LocalStack } from '../../src/dev/local-stack';
import { createLogger } from '../../src/logging';
import { rampSimulatorSigningKey, signRampBody } from '../../src/simulators/ramp/signing';
import { callApi, eventually } from '../helpers/http';
import { checkout, offerThenOrder, waitForStatus, type OrderDraft } from '../helpers/orders';
import { closeServer, freePort, listenOnLoopback } from '../helpers/ports';
import type { WebhookDelivery } from '../helpers/provider-events';
import { journeyOrder } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const ROOT = resolve(__dirname, '..', '..');

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let relay: Server;
let relayUrl: string;
/** Every Ramp webhook that went through the relay to the broker. */
const relayed: WebhookDelivery[] = [];

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env);
  // Forwards Ramp's webhooks to the broker unchanged and keeps a copy: what a customer who points
  // webhookStatusUrl at their own server (and on to the broker) holds.
  relay = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers)
          .filter(([k]) => k.startsWith('x-'))
          .map(([k, v]) => [k, String(v)]),
      );
      const target = new URL(req.url ?? '/', 'http://relay').searchParams.get('to')!;
      relayed.push({ query: target, headers, body });
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }).then(
        async (answer) => res.writeHead(answer.status).end(await answer.text()),
        () => res.writeHead(502).end(),
      );
    });
  });
  relayUrl = `${await listenOnLoopback(relay)}/relay`;
});

afterAll(async () => {
  await stack?.stop();
  if (relay) await closeServer(relay);
  await env?.teardown();
});

interface RampOrder {
  id: string;
  redirect_url: string;
}

async function rampOrder(amount: string): Promise<RampOrder> {
  const draft: OrderDraft = { ...journeyOrder({ code: 'ramp', market: 'US-TX', paymentMethod: 'card' }), from_amount: amount };
  const created = await offerThenOrder(stack.apiUrl, draft);
  expect(created.status).toBe(200);
  return created.body as RampOrder;
}

/** The order's own webhook URL at the broker, as its widget URL carries it. */
function webhookUrlOf(order: RampOrder): URL {
  return new URL(new URL(order.redirect_url).searchParams.get('webhookStatusUrl')!);
}

interface Paid {
  released: WebhookDelivery;
  purchase: { id: string; purchaseViewToken: string };
}

/** Pays the order through its widget, its webhooks relayed (and kept) on the way to the broker; waits for it to complete. */
async function payThroughRelay(order: RampOrder): Promise<Paid> {
  const widget = new URL(order.redirect_url);
  const own = widget.searchParams.get('webhookStatusUrl')!;
  widget.searchParams.set('webhookStatusUrl', `${relayUrl}?to=${encodeURIComponent(own)}`);
  await fetch(widget);
  await checkout(widget.toString(), 'pay');
  await waitForStatus(stack.apiUrl, 'ramp', order.id, 'complete');
  const released = await eventually(
    () => Promise.resolve(relayed.find((w) => w.query === own && (JSON.parse(w.body) as { type: string }).type === 'RELEASED')),
    'the RELEASED body',
  );
  const { purchase } = JSON.parse(released.body) as { purchase: Paid['purchase'] };
  expect(purchase.purchaseViewToken).toMatch(/\S{8,}/);
  return { released, purchase };
}

/** Posts a webhook body to the order's webhook URL on `apiUrl`; the HTTP status. */
async function postTo(apiUrl: string, order: RampOrder, webhook: WebhookDelivery): Promise<number> {
  const url = webhookUrlOf(order);
  const response = await fetch(`${apiUrl}${url.pathname}${url.search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...webhook.headers },
    body: webhook.body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** The claim workflows that name this order, found as an operator finds them (visibility). */
async function claimsOf(client: Client, orderId: string): Promise<WorkflowExecutionInfo[]> {
  return eventually(async () => {
    const found: WorkflowExecutionInfo[] = [];
    for await (const info of client.workflow.list({ query: "WorkflowType = 'providerOrderClaim'" })) {
      if ((info.memo as { orderId?: unknown } | undefined)?.orderId === orderId) found.push(info);
    }
    return found.length > 0 ? found : undefined;
  }, `the claim of order ${orderId}`);
}

/** A second API on the same Temporal and task queue: one restarted since, with nothing remembered. */
async function freshApi(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = buildApi(stack.config, env.client, createLogger('silent', 'test'));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function statusOf(order: RampOrder) {
  return (await callApi(stack.apiUrl, `/api/on_ramp/orders/ramp?code=${order.id}`)).body as {
    status: string;
    extras?: Record<string, unknown>;
  };
}

test('a paid purchase never completes a second order, even after retention deleted every closed claim', async () => {
  // Same wallet, asset and amount, both made before the purchase: the second matches it in every term.
  const [paid, second] = [await rampOrder('80.00'), await rampOrder('80.00')];
  const { released } = await payThroughRelay(paid);
  const claim = (await claimsOf(env.client, paid.id))[0]!;

  // What retention does: every closed claim of the purchase is deleted. An open one it never touches.
  const closed = claim.status.name !== 'RUNNING';
  if (closed) {
    await env.client.workflowService.deleteWorkflowExecution({
      namespace: env.namespace ?? 'default',
      workflowExecution: { workflowId: claim.workflowId, runId: claim.runId },
    });
    await eventually(async () => {
      try {
        await env.client.workflow.getHandle(claim.workflowId).describe();
        return undefined;
      } catch {
        return true;
      }
    }, 'the claim deleted');
  }

  // The genuine body, posted again, to the second order, through an API with nothing in memory.
  const api = await freshApi();
  try {
    expect(await postTo(api.url, second, released)).toBe(200);
    expect(await postTo(stack.apiUrl, second, released)).toBe(200);
  } finally {
    await api.close();
  }
  await new Promise((r) => setTimeout(r, 2000));
  const status = await statusOf(second);
  expect(['created', 'pending']).toContain(status.status);
  expect(status.extras ?? {}).not.toHaveProperty('transaction_hash');

  // The claim is open, and stays open for longer than any order listens (payment window + grace).
  expect(closed).toBe(false);
  const { orderTimings } = stack.config;
  const history = await env.client.workflow.getHandle(claim.workflowId).fetchHistory();
  const timer = history.events?.find((e) => e.timerStartedEventAttributes)?.timerStartedEventAttributes;
  const holdsMs = timer?.startToFireTimeout ? tsToMs(timer.startToFireTimeout) : 0;
  expect(holdsMs).toBeGreaterThanOrEqual(orderTimings.paymentWindowMs + orderTimings.settledGraceMs);
});

test('the same purchase without its view token is the same purchase: it claims nothing more', async () => {
  const [paid, second] = [await rampOrder('85.00'), await rampOrder('85.00')];
  // Claimed by the paid order with bodies that carry the view token.
  const { released } = await payThroughRelay(paid);
  // Ramp's signature over the body without purchaseViewToken (the simulator's key is the one this broker trusts).
  const body = JSON.parse(released.body) as { purchase: Record<string, unknown> };
  delete body.purchase.purchaseViewToken;
  const tokenless: WebhookDelivery = {
    query: '',
    headers: { 'x-body-signature': signRampBody(body, rampSimulatorSigningKey(undefined)) },
    body: JSON.stringify(body),
  };
  // Through an API that remembers nothing (the claim is read from Temporal), and through the one that made the claim.
  const api = await freshApi();
  try {
    expect(await postTo(api.url, second, tokenless)).toBe(200);
  } finally {
    await api.close();
  }
  expect(await postTo(stack.apiUrl, second, tokenless)).toBe(200);
  await new Promise((r) => setTimeout(r, 2000));
  expect((await statusOf(second)).status).toBe('created');
  // Refused before the second order's workflow: one claim of the purchase, the paid order's.
  const claims: WorkflowExecutionInfo[] = [];
  for await (const info of env.client.workflow.list({ query: "WorkflowType = 'providerOrderClaim'" })) {
    if ((info.memo as { orderId?: unknown } | undefined)?.orderId === second.id) claims.push(info);
  }
  expect(claims).toEqual([]);
});

test('no claim workflow carries the view token: not its id, summary, memo or input', async () => {
  const order = await rampOrder('90.00');
  const { purchase } = await payThroughRelay(order);
  const claim = (await claimsOf(env.client, order.id))[0]!;
  expect(claim.workflowId).toBe(`onramp-claim-ramp-${createHash('sha256').update(purchase.id).digest('hex')}`);
  const history = await env.client.workflow.getHandle(claim.workflowId).fetchHistory();
  const started = history.events![0]!;
  const visible = [
    claim.workflowId,
    JSON.stringify(claim.memo),
    ...(started.workflowExecutionStartedEventAttributes?.input?.payloads ?? []).map((p) => Buffer.from(p.data!).toString('utf8')),
    ...[started.userMetadata?.summary?.data].filter((d) => d).map((d) => Buffer.from(d!).toString('utf8')),
  ];
  expect(visible.join('\n')).not.toContain(purchase.purchaseViewToken);
  expect(visible[0]).not.toContain(purchase.id);
});

describe('start-up against the namespace retention', () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((child) => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));

  /** A namespace of the test server with this retention, registered as an operator would. */
  async function namespaceWithRetention(retentionMs: number): Promise<string> {
    const namespace = `claims-${randomUUID().slice(0, 8)}`;
    await env.client.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(retentionMs) });
    await eventually(async () => {
      try {
        await env.client.workflowService.describeNamespace({ namespace });
        return true;
      } catch {
        return undefined;
      }
    }, `namespace ${namespace}`);
    return namespace;
  }

  /** src/api/main.ts as the image runs it, on this namespace: its exit code (or 'running', then stopped) and output. */
  async function startApi(namespace: string): Promise<{ result: number | null | 'running'; output: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/api/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'development',
        TEMPORAL_ADDRESS: env.address,
        TEMPORAL_NAMESPACE: namespace,
        PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const listening = new Promise<'running'>((done) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('API listening')) done('running');
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
    });
    const tooLong = new Promise<'running'>((done) => setTimeout(() => done('running'), 45_000).unref());
    const result = await Promise.race([exit, listening, tooLong]);
    if (result === 'running') {
      child.kill('SIGTERM');
      await exit;
    }
    return { result, output };
  }

  const DAY_MS = 24 * 60 * 60_000;

  test('claims that closed early, on a namespace that deletes them sooner than orders listen: refused, naming the retention', async () => {
    const namespace = await namespaceWithRetention(2 * DAY_MS);
    // A claim as the API makes them, terminated by an operator before its time.
    const client = new (env.client.constructor as typeof Client)({ connection: env.client.connection, namespace });
    const purchaseId = randomUUID();
    const handle = await client.workflow.start('providerOrderClaim', {
      workflowId: providerOrderClaimId('ramp', purchaseId),
      taskQueue: `no-worker-${randomUUID()}`,
      args: [{ orderId: randomUUID(), providerCode: 'ramp', providerOrderId: purchaseId, holdForMs: 9 * DAY_MS }],
      memo: { orderId: 'some-order' },
    });
    await handle.terminate('terminated before its time');
    await eventually(
      async () =>
        (await client.workflow.count("WorkflowType = 'providerOrderClaim' AND ExecutionStatus != 'Running'")).count > 0 ? true : undefined,
      'visibility',
    );

    const { result, output } = await startApi(namespace);
    expect(result).toBe(1);
    expect(output).toMatch(
      new RegExp(`Temporal namespace ${namespace} keeps closed workflows 2 day\\(s\\) \\(its workflow execution retention\\)`),
    );
    expect(output).toContain('--retention');
  });

  test('a namespace that keeps closed workflows less than a day: refused, naming the retention', async () => {
    const { result, output } = await startApi(await namespaceWithRetention(DAY_MS / 2));
    expect(result).toBe(1);
    expect(output).toMatch(
      /keeps closed workflows 0\.5 day\(s\) \(its workflow execution retention\); provider order claims need at least 1 day\(s\)/,
    );
    expect(output).toContain('--retention 24h');
  });

  test('a namespace that keeps closed claims a day, none of them closed early: the API starts', async () => {
    const { result, output } = await startApi(await namespaceWithRetention(2 * DAY_MS));
    expect({ result, output }).toEqual({ result: 'running', output: expect.stringContaining('API listening') });
  });
});
