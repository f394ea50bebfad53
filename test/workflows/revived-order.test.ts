/**
 * An order a late payment revives (`expired`, then `processing`), under the real default durations
 * (a 7-day settled grace) on Temporal's time-skipping test server: it is followed until its provider
 * ends it, however late in the grace the payment came, and settling again starts a new grace. The
 * 1.0 workflow stopped following it when the grace that began at its expiry ended, whatever its
 * status then, and its histories must still replay down that path. Provider reports arrive as the
 * API sends them, as signals; the sandbox simulator answers the polls, and the integrator's endpoint
 * receives the order's webhooks.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { OrderStatus } from '../../src/domain/order-status';
import { getOrderQuery, orderWorkflowId, providerEventSignal, type OrderMemo } from '../../src/temporal/order-contract';
import { orderSinks } from '../../src/worker/sinks';
import type { orderWorkflow } from '../../workflows';
import { FOLLOW_REVIVED_PATCH, OPERATOR_REVIEW_PATCH } from '../../workflows/order';
import { eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { workflowInput } from '../helpers/orders';
import { workflowBundle } from '../helpers/temporal';
import { startTimeSkipping, type TimeSkippingStack } from '../helpers/time-skipping';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TASK_QUEUE = 'revived-order';

let stack: TimeSkippingStack;
let env: TestWorkflowEnvironment;
let receiver: IntegratorReceiver;

beforeAll(async () => {
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const webhookUrl = await receiver.start();
  stack = await startTimeSkipping({
    taskQueue: TASK_QUEUE,
    integrators: [
      { id: 'dev', name: 'Dev', api_key_sha256: ['0'.repeat(64)], webhook_url: webhookUrl, webhook_secret: DEFAULT_DEV_WEBHOOK_SECRET },
    ],
  });
  env = stack.env;
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

type OrderHandle = WorkflowHandle<typeof orderWorkflow>;

async function startOrder(id: string): Promise<OrderHandle> {
  // The simulator's clock follows the skipped workflow clock (test/workflows/real-durations.test.ts).
  stack.simulator.faults.providerOrderAgeMs = Date.now() - (await env.currentTimeMs());
  const handle = await env.client.workflow.start<typeof orderWorkflow>('orderWorkflow', {
    workflowId: orderWorkflowId(id),
    taskQueue: TASK_QUEUE,
    args: [workflowInput(id)],
  });
  await eventually(async () => (await handle.query(getOrderQuery)) ?? undefined, `order ${id} created`);
  return handle;
}

/** The provider reports `status` (as the API signals a verified webhook), and the order takes it. */
async function report(handle: OrderHandle, status: OrderStatus, providerStatus: string): Promise<OrderMemo> {
  await handle.signal(providerEventSignal, {
    providerCode: 'sandbox',
    eventId: `e-${status}`,
    providerStatus,
    status,
    ...(status === 'failed' ? { failureReason: 'card_declined' } : {}),
  });
  return eventually(async () => {
    const memo = await handle.query(getOrderQuery);
    return memo?.order.status === status ? memo : undefined;
  }, status);
}

async function expectOpen(handle: OrderHandle): Promise<void> {
  expect((await handle.describe()).status.name).toBe('RUNNING');
}

const daysBetween = (from: string, to: number) => (to - Date.parse(from)) / DAY;

async function patchMarkers(handle: OrderHandle): Promise<string[]> {
  const { events } = await handle.fetchHistory();
  return (events ?? [])
    .map((e) => e.markerRecordedEventAttributes)
    .filter((m) => m?.markerName === 'core_patch')
    .map((m) => Buffer.from(m?.details?.['patch-data']?.payloads?.[0]?.data ?? []).toString('utf8'));
}

test('an order revived 2 h before its grace ends is followed until its provider completes it, past the grace', async () => {
  const id = '00000000-0000-5000-8000-0000000000f1';
  const handle = await startOrder(id);
  const expired = await report(handle, 'expired', 'EXPIRED');

  await env.sleep('166 hours');
  await report(handle, 'processing', 'PAYMENT_RECEIVED');
  // The grace that began at the expiry ended 4 h ago: the order is still followed.
  await env.sleep('6 hours');
  await expectOpen(handle);
  expect(daysBetween(expired.order.updated_at, await env.currentTimeMs())).toBeGreaterThan(7);

  await report(handle, 'complete', 'COMPLETED');
  const result: OrderMemo = await handle.result();
  expect(result.order.status).toBe('complete');
  expect(receiver.delivered(id).map((w) => w.body.data.status)).toEqual(['created', 'expired', 'processing', 'complete']);
  expect(receiver.delivered(id).every((w) => w.verified)).toBe(true);

  // The revived path records its patch once, and its history replays against this code. Paid 7 days
  // after its creation, the order was open too long at once: its review was told (the review patch).
  expect(await patchMarkers(handle)).toEqual([
    expect.stringContaining(`"${FOLLOW_REVIVED_PATCH}"`),
    expect.stringContaining(`"${OPERATOR_REVIEW_PATCH}"`),
  ]);
  const history = await handle.fetchHistory();
  await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle(), sinks: orderSinks() }, history)).resolves.toBeUndefined();
});

test('a revived order that fails after its first grace gets a new grace: a refund 6 days later still applies', async () => {
  const handle = await startOrder('00000000-0000-5000-8000-0000000000f2');
  await report(handle, 'expired', 'EXPIRED');
  await env.sleep('166 hours');
  await report(handle, 'processing', 'PAYMENT_RECEIVED');
  await env.sleep('6 hours');
  await expectOpen(handle);

  const failed = await report(handle, 'failed', 'FAILED');
  await env.sleep('6 days');
  await expectOpen(handle);
  await report(handle, 'refunded', 'REFUNDED');
  const result: OrderMemo = await handle.result();
  expect(result.order.status).toBe('refunded');
  expect(daysBetween(failed.order.updated_at, Date.parse(result.order.updated_at))).toBeCloseTo(6, 1);
});

test('a revived order that fails again and is never refunded closes 7 days after the failure', async () => {
  const handle = await startOrder('00000000-0000-5000-8000-0000000000f3');
  await report(handle, 'expired', 'EXPIRED');
  await env.sleep('166 hours');
  await report(handle, 'processing', 'PAYMENT_RECEIVED');
  await env.sleep('6 hours');
  const failed = await report(handle, 'failed', 'FAILED');

  const result: OrderMemo = await handle.result();
  expect(result.order.status).toBe('failed');
  const { closeTime } = await handle.describe();
  expect(daysBetween(failed.order.updated_at, closeTime!.getTime())).toBeCloseTo(7, 1);
});

test('an expired order nothing revives closes at the end of its grace and records no patch', async () => {
  const handle = await startOrder('00000000-0000-5000-8000-0000000000f4');
  const expired = await report(handle, 'expired', 'EXPIRED');
  const result: OrderMemo = await handle.result();
  expect(result.order.status).toBe('expired');
  const { closeTime } = await handle.describe();
  expect(daysBetween(expired.order.updated_at, closeTime!.getTime())).toBeCloseTo(7, 1);
  expect(await patchMarkers(handle)).toEqual([]);
});

test('an order revived under 1.0 and closed at the end of its first grace replays down the old path', async () => {
  // Recorded from the 1.0 workflow on the time-skipping server: expired, revived 2 h before the grace
  // ended, then closed `processing` at its end. The new path would not close there.
  const history = JSON.parse(readFileSync(resolve(__dirname, '../fixtures/revived-order-1.0.history.json'), 'utf8')) as unknown;
  await expect(Worker.runReplayHistory({ workflowBundle: await workflowBundle(), sinks: orderSinks() }, history)).resolves.toBeUndefined();
});
