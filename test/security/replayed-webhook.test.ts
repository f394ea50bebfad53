/**
 * A replayed provider webhook cannot grow an order's workflow history. Through real HTTP and a real
 * Temporal dev server, the same genuinely signed sandbox webhook is posted 10,000 times: every post
 * is acknowledged, one is signalled, and the order moves once. Before the API remembered signalled
 * events, every post added a WorkflowExecutionSignaled event to the history (the workflow dropped
 * the duplicate, but only after it was recorded).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildApi } from '../../src/api/server';
import { DEV_SANDBOX_WEBHOOK_SECRET } from '../../src/config';
import type { LocalStack } from '../../src/dev/local-stack';
import { createLogger } from '../../src/logging';
import { connectRedis, type RedisConnection } from '../../src/redis/connection';
import { orderWorkflowId, type OrderMemo } from '../../src/temporal/order-contract';
import { FAST_TIMINGS } from '../helpers/config';
import { draftOrder, offerThenOrder, waitForStatus } from '../helpers/orders';
import { startRedis, type RedisServer } from '../helpers/redis';
import { orderHistory } from '../helpers/provider-events';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';
import { signedSandboxWebhook } from '../helpers/webhooks';

const REPLAYS = 10_000;
const CONCURRENCY = 4;

let env: TestWorkflowEnvironment;
let stack: LocalStack;

beforeAll(async () => {
  env = await startTemporal();
  // No polling and no expiry while the test runs: every history event comes from the webhooks.
  const quiet = { ...FAST_TIMINGS, pollInitialMs: 600_000, pollMaxMs: 600_000, paymentWindowMs: 600_000 };
  stack = await startTestStack(env, { config: { orderTimings: quiet } });
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

/** A new sandbox order, and a genuinely signed webhook moving it to `pending`. */
async function orderAndWebhook() {
  const created = await offerThenOrder(stack.apiUrl, draftOrder());
  expect(created.status).toBe(200);
  const order = created.body;
  const providerOrder = stack.simulator.orders.get(order.extras.provider_order_id);
  const webhook = signedSandboxWebhook(DEV_SANDBOX_WEBHOOK_SECRET, { ...providerOrder, status: 'AWAITING_PAYMENT' }, `evt-${randomUUID()}`);
  return { order, webhook };
}

type Webhook = ReturnType<typeof signedSandboxWebhook>;

async function post(apiUrl: string, { body, signature }: Webhook): Promise<number> {
  const response = await fetch(`${apiUrl}/api/webhooks/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Posts the webhook `count` times, `CONCURRENCY` at a time; returns how many answers had each status. */
async function replay(apiUrl: string, webhook: Webhook, count: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let left = count;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left--;
        const status = await post(apiUrl, webhook);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

/** Every history event of every run of the order's workflow. */
async function history(orderId: string) {
  const events = await orderHistory(env.client, orderId);
  return { total: events.length, signals: events.filter((e) => e.workflowExecutionSignaledEventAttributes).length };
}

async function memo(orderId: string): Promise<OrderMemo> {
  return (await env.client.workflow.getHandle(orderWorkflowId(orderId)).describe()).memo as unknown as OrderMemo;
}

test(`the same signed webhook posted ${REPLAYS} times is acknowledged every time and signalled once`, async () => {
  const { order, webhook } = await orderAndWebhook();
  expect(await post(stack.apiUrl, webhook)).toBe(200);
  await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'pending');

  expect(await replay(stack.apiUrl, webhook, REPLAYS - 1)).toEqual({ 200: REPLAYS - 1 });

  const after = await history(order.id);
  expect(after.signals).toBe(1);
  expect(after.total).toBeLessThan(100);
  // Moved once: created (sequence 1), then pending (2).
  expect(await memo(order.id)).toMatchObject({ sequence: 2, order: { status: 'pending' } });
}, 120_000);

describe('with REDIS_URL', () => {
  let redisServer: RedisServer;
  const connections: RedisConnection[] = [];
  const servers: Server[] = [];

  /** Another API process on the same Temporal server, sharing Redis with the others. */
  async function apiWithRedis(): Promise<string> {
    const connection = await connectRedis(redisServer.url, createLogger('silent', 'test'));
    connections.push(connection);
    const server = createServer(buildApi(stack.config, env.client, createLogger('silent', 'test'), { redis: connection.client }));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    redisServer = await startRedis();
  });

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const connection of connections) await connection.close();
    await redisServer?.stop();
  });

  test('an event signalled through one API process is not signalled again through another', async () => {
    const [first, second] = [await apiWithRedis(), await apiWithRedis()];
    const { order, webhook } = await orderAndWebhook();
    expect(await post(first, webhook)).toBe(200);
    await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'pending');

    expect(await replay(second, webhook, 100)).toEqual({ 200: 100 });
    expect(await replay(first, webhook, 100)).toEqual({ 200: 100 });
    expect((await history(order.id)).signals).toBe(1);

    // A new event still goes through, from either process, once.
    const providerOrder = stack.simulator.orders.get(order.extras.provider_order_id);
    const hold = signedSandboxWebhook(DEV_SANDBOX_WEBHOOK_SECRET, { ...providerOrder, status: 'ON_HOLD' }, `evt-${randomUUID()}`);
    expect(await post(second, hold)).toBe(200);
    await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'hold');
    expect(await replay(first, hold, 100)).toEqual({ 200: 100 });
    expect((await history(order.id)).signals).toBe(2);
    expect(await memo(order.id)).toMatchObject({ sequence: 3, order: { status: 'hold' } });
  }, 60_000);
});
