/**
 * Integrator webhooks end to end: real broker, real Temporal server, the sandbox simulator driving
 * each order from its checkout page, and an integrator endpoint that verifies every delivery with
 * the standardwebhooks package.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout, draftOrder, offerThenOrder, waitForStatus } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;
let receiverUrl: string;

beforeAll(async () => {
  env = await startTemporal();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  receiverUrl = await receiver.start();
  stack = await startTestStack(env, { env: { ONRAMP_WEBHOOK_URL: receiverUrl } });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
});

/** Waits until the order's webhooks have reached `status`, then returns every delivery of it. */
async function deliveriesUntil(orderId: string, status: string) {
  return eventually(() => {
    const delivered = receiver.delivered(orderId);
    return Promise.resolve(delivered.some((w) => w.body.data.status === status) ? delivered : undefined);
  }, `a ${status} webhook for ${orderId}`);
}

const statuses = (orderId: string) => receiver.delivered(orderId).map((w) => w.body.data.status);

test('pay: one signed webhook per status change, in order, numbered, with the order as the status endpoint shows it', async () => {
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'pay');
  const delivered = await deliveriesUntil(order.id, 'complete');

  expect(delivered.map((w) => w.body.data.status)).toEqual(['created', 'pending', 'processing', 'complete']);
  expect(delivered.map((w) => w.body.data.sequence)).toEqual([1, 2, 3, 4]);
  expect(delivered.every((w) => w.verified && w.body.type === 'order.status_changed')).toBe(true);
  expect(new Set(delivered.map((w) => w.webhookId)).size).toBe(4);

  const last = delivered.at(-1)!.body;
  // A change made by a provider's webhook is sent from the worker while its task, the order's
  // record with it, is being saved (docs/api.md, "Webhooks to the integrator"): the status
  // endpoint shows it a moment later, never another order.
  const current = await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');
  expect(last.data).toEqual({ ...current, sequence: 4 });
  expect(last.timestamp).toBe(current.updated_at);
});

test('hold, then pay: the held order goes on to complete', async () => {
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'hold');
  await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'hold');
  await checkout(order.redirect_url, 'pay');
  await deliveriesUntil(order.id, 'complete');
  expect(statuses(order.id)).toEqual(['created', 'hold', 'processing', 'complete']);
});

test('fail, then refund: failed with its reason, then refunded', async () => {
  const stackWithGrace = await startTestStack(env, {
    env: { ONRAMP_WEBHOOK_URL: receiverUrl },
    config: { orderTimings: { ...stack.config.orderTimings, settledGraceMs: 30_000 } },
  });
  try {
    const { body: order } = await offerThenOrder(stackWithGrace.apiUrl, draftOrder());
    await checkout(order.redirect_url, 'fail');
    const failed = await deliveriesUntil(order.id, 'failed');
    expect(failed.at(-1)!.body.data.failure_reason).toBe('card_declined');
    await checkout(order.redirect_url, 'refund');
    const refunded = await deliveriesUntil(order.id, 'refunded');
    expect(refunded.map((w) => w.body.data.status)).toEqual(['created', 'failed', 'refunded']);
    expect(refunded.at(-1)!.body.data.failure_reason).toBeUndefined();
  } finally {
    await stackWithGrace.stop();
  }
});

test('expire: the order expires and the integrator hears it', async () => {
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'expire');
  await deliveriesUntil(order.id, 'expired');
  expect(statuses(order.id)).toEqual(['created', 'expired']);
});

test('a failing endpoint is retried with the same webhook-id, honouring Retry-After, and order is kept', async () => {
  receiver.answerNext({ status: 503, headers: { 'retry-after': '1' } }, { status: 500 });
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'pay');
  const delivered = await deliveriesUntil(order.id, 'complete');
  expect(delivered.map((w) => w.body.data.status)).toEqual(['created', 'pending', 'processing', 'complete']);

  const first = receiver.attempts(delivered[0]!.webhookId);
  expect(first.map((w) => w.answered)).toEqual([503, 500, 204]);
  expect(first.every((w) => w.verified)).toBe(true);
  // Retry-After: 1 was honoured; the schedule's next pause (400 ms in tests) came after.
  expect(first[1]!.receivedAt - first[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  expect(first[2]!.receivedAt - first[1]!.receivedAt).toBeGreaterThanOrEqual(350);
  // Later status changes waited for the first one: no webhook of this order overtook it.
  const firstDeliveredAt = first[2]!.receivedAt;
  const later = receiver.received.filter((w) => w.body.data.id === order.id && w.body.data.sequence > 1);
  expect(later.every((w) => w.receivedAt >= firstDeliveredAt)).toBe(true);
});
