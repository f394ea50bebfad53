/**
 * Crash tests: orders in flight survive a worker killed with SIGKILL (after the provider orders
 * exist, again in the middle of integrator webhook deliveries, in the middle of the local
 * activity that creates the provider order, and in the middle of a webhook's local first attempt)
 * and a Temporal dev server stopped
 * and restarted on its SQLite file. Every order must reach its right final status with exactly one
 * provider order, and the integrator must receive every status change.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEV_SANDBOX_WEBHOOK_SECRET } from '../../src/config';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { startLocalStack, type LocalStack } from '../../src/dev/local-stack';
import { canTransition, type OrderStatus } from '../../src/domain/order-status';
import { createLogger } from '../../src/logging';
import { createTemporalClient } from '../../src/temporal/connection';
import { orderWorkflowId, type OrderMemo } from '../../src/temporal/order-contract';
import { testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { IntegratorReceiver, type ReceivedWebhook } from '../helpers/integrator-receiver';
import { startHttpTap } from '../helpers/http-tap';
import { checkout, draftOrder, fetchOffers, offerThenOrder, waitForStatus } from '../helpers/orders';
import { freePort } from '../helpers/ports';
import { startTemporal, workflowBundle } from '../helpers/temporal';
import { signedSandboxWebhook } from '../helpers/webhooks';
import { WorkerProcess } from '../helpers/worker-process';

jest.setTimeout(240_000);

type Path = 'pay' | 'fail' | 'hold-then-pay' | 'expire';
interface TestOrder {
  id: string;
  redirect_url: string;
  path: Path;
}
const FINAL: Record<Path, OrderStatus> = { pay: 'complete', fail: 'failed', 'hold-then-pay': 'complete', expire: 'expired' };
const PATHS: Path[] = ['pay', 'fail', 'hold-then-pay', 'expire'];
const ORDERS = 8;

let dir: string;
let port: number;
let server: TestWorkflowEnvironment | undefined;
let stack: LocalStack;
let receiver: IntegratorReceiver;
let bundlePath: string;
const workers: WorkerProcess[] = [];

/** The Temporal dev server on a fixed port and a SQLite file, so it can be stopped and started again. */
function startServer(): Promise<TestWorkflowEnvironment> {
  return startTemporal({ ip: '127.0.0.1', port, dbFilename: join(dir, 'temporal.db') });
}

async function startWorker(sandboxUrl = stack.simulatorUrl, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const worker = new WorkerProcess({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
    TEMPORAL_TASK_QUEUE: stack.config.temporal.taskQueue,
    WORKFLOW_BUNDLE_PATH: bundlePath,
    SANDBOX_URL: sandboxUrl,
    ONRAMP_WEBHOOK_URL: stack.config.integrators[0]!.webhook_url!,
    WEBHOOK_TIMEOUT_SECONDS: '1',
    ...env,
  });
  workers.push(worker);
  await worker.start();
  return worker;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'onramp-crash-'));
  port = await freePort();
  bundlePath = join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, (await workflowBundle()).code);
  server = await startServer();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const webhookUrl = await receiver.start();
  const base = testConfig({}, { ONRAMP_WEBHOOK_URL: webhookUrl });
  stack = await startLocalStack({
    config: {
      ...base,
      temporal: { ...base.temporal, address: `127.0.0.1:${port}`, taskQueue: 'crash-tests' },
      orderTimings: { ...base.orderTimings, paymentWindowMs: 120_000, webhookAttemptTimeoutMs: 3_000 },
    },
    // The API's own client reconnects by itself when the server comes back.
    client: createTemporalClient({ address: `127.0.0.1:${port}`, namespace: 'default' }),
    connection: server.nativeConnection,
    logger: createLogger('silent', 'test'),
    settleDelayMs: 50,
    worker: false,
  });
});

afterAll(async () => {
  for (const worker of workers) await worker.stop();
  await stack?.stop();
  await receiver?.stop();
  await server?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

async function createOrders(count: number): Promise<TestOrder[]> {
  const orders: TestOrder[] = [];
  for (let i = 0; i < count; i++) {
    const res = await offerThenOrder(stack.apiUrl, draftOrder());
    expect(res.status).toBe(200);
    orders.push({ ...res.body, path: PATHS[i % PATHS.length]! });
  }
  return orders;
}

/** The first move of each path (hold-then-pay holds; its pay comes later). */
async function firstMoves(orders: TestOrder[]): Promise<void> {
  for (const order of orders) {
    const action = order.path === 'hold-then-pay' ? 'hold' : order.path;
    expect((await checkout(order.redirect_url, action)).status).toBe(200);
  }
}

async function pays(orders: TestOrder[]): Promise<void> {
  for (const order of orders.filter((o) => o.path === 'hold-then-pay')) {
    await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'hold', 90_000);
    expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);
  }
}

async function memoOf(orderId: string): Promise<OrderMemo> {
  const description = await server!.client.workflow.getHandle(orderWorkflowId(orderId)).describe();
  return description.memo as unknown as OrderMemo;
}

/** Every order final, one provider order each, and every status change received by the integrator, in order. */
async function expectSettled(orders: TestOrder[]): Promise<void> {
  for (const order of orders) {
    await waitForStatus(stack.apiUrl, 'sandbox', order.id, FINAL[order.path], 90_000);
    expect([...stack.simulator.orders.values()].filter((o) => o.partner_order_id === order.id)).toHaveLength(1);

    const { sequence } = await memoOf(order.id);
    await eventually(
      () => Promise.resolve(new Set(receiver.delivered(order.id).map((w) => w.webhookId)).size === sequence ? true : undefined),
      `${sequence} webhooks for order ${order.id}`,
      90_000,
    );
    const firsts = new Map<string, ReceivedWebhook>();
    for (const w of receiver.delivered(order.id)) if (!firsts.has(w.webhookId)) firsts.set(w.webhookId, w);
    const delivered = [...firsts.values()];
    expect(delivered.map((w) => w.body.data.sequence)).toEqual(Array.from({ length: sequence }, (_, i) => i + 1));
    const statuses = delivered.map((w) => w.body.data.status as OrderStatus);
    expect(statuses[0]).toBe('created');
    expect(statuses.at(-1)).toBe(FINAL[order.path]);
    for (let i = 1; i < statuses.length; i++) expect(canTransition(statuses[i - 1]!, statuses[i]!)).toBe(true);
    // A retried delivery repeats the same message: same id, same body.
    for (const w of receiver.delivered(order.id)) expect(w.body).toEqual(firsts.get(w.webhookId)!.body);
  }
}

test('kill -9 of the worker after the provider orders exist, and again during webhook deliveries', async () => {
  const first = await startWorker();
  const orders = await createOrders(ORDERS);
  await first.kill9();

  // The customers act while no worker runs: provider webhooks are signalled and wait in Temporal.
  receiver.answerNext(...Array.from({ length: 500 }, () => 'hang' as const));
  await firstMoves(orders);

  const second = await startWorker();
  await eventually(
    () => Promise.resolve(receiver.received.filter((w) => w.answered === 0).length >= 3 ? true : undefined),
    'webhook deliveries in flight',
    60_000,
  );
  await second.kill9();
  receiver.clearScript();

  await startWorker();
  await pays(orders);
  await expectSettled(orders);
});

test('the Temporal server stopped and restarted on its SQLite file', async () => {
  const worker = workers.find((w) => w.alive) ?? (await startWorker());
  const orders = await createOrders(ORDERS);
  const before = orders.slice(0, ORDERS / 2);
  const during = orders.slice(ORDERS / 2);
  await firstMoves(before);

  await server!.teardown();
  server = undefined;
  // With Temporal down the broker refuses provider webhooks with 503, so providers retry them.
  const { body, signature } = signedSandboxWebhook(DEV_SANDBOX_WEBHOOK_SECRET, {
    partner_order_id: during[0]!.id,
    status: 'AWAITING_PAYMENT',
  });
  const refused = await fetch(`${stack.apiUrl}/api/webhooks/sandbox`, {
    method: 'POST',
    headers: { 'sandbox-signature': signature },
    body,
  });
  expect(refused.status).toBe(503);
  // These customers act while the server is down; the simulator's webhook retries run out, so
  // polling has to find these orders' statuses.
  await firstMoves(during);
  await new Promise((r) => setTimeout(r, 5_000));

  server = await startServer();
  if (!worker.alive) await startWorker();
  await pays(orders);
  await expectSettled(orders);
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${orders[0]!.id}`)).status).toBe(200);
});

test('kill -9 of the worker while its local activity waits for the provider to create the order', async () => {
  for (const worker of workers) if (worker.alive) await worker.kill9();
  // The worker talks to the sandbox through a tap, which shows when the create call has reached it.
  const tap = await startHttpTap(stack.simulatorUrl);
  const creates = (orderId: string) => tap.requests.filter((r) => r.method === 'POST' && r.body.includes(orderId));
  try {
    const first = await startWorker(tap.url);
    const draft = draftOrder();
    expect((await fetchOffers(stack.apiUrl, draft)).status).toBe(200);
    // The provider creates the order only after 3 s, and answers after that: the worker dies in between.
    stack.simulator.faults.latencyMs = 3_000;
    const firstTry = callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft });
    const orderId = await eventually(
      () =>
        Promise.resolve(
          tap.requests.find((r) => r.method === 'POST' && r.path.includes('/orders'))?.body.match(/"partner_order_id":"([^"]+)"/)?.[1],
        ),
      'the create call at the provider',
      30_000,
    );
    await first.kill9();
    await firstTry;

    // The provider made the order (its answer was lost); the next worker runs the local activity again.
    await eventually(
      () => Promise.resolve([...stack.simulator.orders.values()].some((o) => o.partner_order_id === orderId) ? true : undefined),
      'the provider order made by the dead worker',
      30_000,
    );
    await startWorker(tap.url);
    const created = await eventually(
      async () => {
        const res = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft });
        return res.status === 200 ? (res.body as { id: string; redirect_url: string }) : undefined;
      },
      'the order created by the second worker',
      90_000,
    );
    expect(created.id).toBe(orderId);
    expect(creates(orderId).length).toBeGreaterThanOrEqual(2);
    stack.simulator.faults.latencyMs = 0;

    expect((await checkout(created.redirect_url, 'pay')).status).toBe(200);
    await expectSettled([{ ...created, path: 'pay' }]);
  } finally {
    stack.simulator.faults.latencyMs = 0;
    await tap.close();
  }
});

test("kill -9 of the worker while a webhook's local first attempt waits on the integrator: the re-run sends the same message", async () => {
  for (const worker of workers) if (worker.alive) await worker.kill9();
  // The integrator's timeout is longer than the time the test needs to see the attempt and kill the worker.
  const first = await startWorker(stack.simulatorUrl, { WEBHOOK_TIMEOUT_SECONDS: '2' });
  const [order] = await createOrders(1);
  expect(order!.path).toBe('pay');
  await eventually(() => Promise.resolve(receiver.delivered(order!.id).length === 1 ? true : undefined), 'the created webhook');

  // The payment's webhook is the order's first change made by a provider webhook: its first attempt
  // is a local activity, which hangs at the integrator while the worker is killed.
  receiver.answerNext('hang');
  expect((await checkout(order!.redirect_url, 'pay')).status).toBe(200);
  const deadline = Date.now() + 30_000;
  const hung = () => receiver.received.find((w) => w.answered === 0 && w.body?.data?.id === order!.id);
  while (!hung()) {
    if (Date.now() > deadline) throw new Error('no webhook attempt reached the integrator');
    await new Promise((r) => setTimeout(r, 5));
  }
  await first.kill9();
  receiver.clearScript();
  expect(hung()!.body.data.sequence).toBe(2);

  // The lost workflow task runs again on the next worker, and the attempt with it.
  await startWorker();
  await expectSettled([order!]);
  const byId = new Map<string, string>();
  for (const w of receiver.received.filter((r) => r.body?.data?.id === order!.id)) {
    const seen = byId.get(w.webhookId);
    if (seen === undefined) byId.set(w.webhookId, w.raw);
    else expect({ webhookId: w.webhookId, body: w.raw }).toEqual({ webhookId: w.webhookId, body: seen });
  }
  expect(receiver.received.filter((r) => r.webhookId === hung()!.webhookId && r.answered >= 200).length).toBeGreaterThanOrEqual(1);
  // The first attempt was local: a marker beside the address check's and the provider create's.
  const history = await server!.client.workflow.getHandle(orderWorkflowId(order!.id)).fetchHistory();
  const localMarkers = (history.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
  expect(localMarkers.length).toBeGreaterThanOrEqual(3);
});
