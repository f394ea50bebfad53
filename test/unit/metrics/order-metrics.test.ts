/**
 * What orders report to the worker's metrics: the order state's calls to its metrics effect (once
 * per creation, transition and flag), the sink functions that count them (never during replay),
 * and the open orders' age buckets.
 */
import type { WorkflowInfo } from '@temporalio/workflow';
import { integratorWebhooksSettled, orderIntegrityAlerts, ordersCreated, orderTransitions } from '../../../src/metrics/metrics';
import type { OrderMetricsSink } from '../../../workflows/order-state';
import { OrderState } from '../../../workflows/order-state';
import { ageBucket } from '../../../src/worker/open-orders';
import { orderSinks } from '../../../src/worker/sinks';
import { workflowInput } from '../../helpers/orders';

function stateWithMetrics() {
  const events: unknown[][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) =>
      events.push([name, ...args]);
  const metrics: OrderMetricsSink = {
    created: record('created'),
    transition: record('transition'),
    flagged: record('flagged'),
    rejected: record('rejected'),
    webhookFailed: record('webhookFailed'),
    webhookSettled: record('webhookSettled'),
  };
  const input = workflowInput('00000000-0000-5000-8000-0000000000aa');
  const state = new OrderState({
    input,
    effects: {
      now: () => Date.now(),
      upsertMemo: () => undefined,
      upsertSearchAttributes: () => undefined,
      log: { info() {}, warn() {} },
      metrics,
    },
  });
  return { state, events, input };
}

test('the order state reports its creation, each transition once, and its flags', () => {
  const { state, events, input } = stateWithMetrics();
  state.created({ orderId: input.orderId, providerOrderId: 'sb-1', providerStatus: 'NEW', status: 'pending', redirectUrl: 'http://x/c' });
  expect(events).toEqual([
    ['created', 'sandbox'],
    ['transition', 'sandbox', 'created', 'pending'],
  ]);
  const paid = { providerCode: 'sandbox', providerOrderId: 'sb-1', providerStatus: 'PAID', status: 'processing' as const, eventId: 'e1' };
  expect(state.apply(paid)).toBe(true);
  expect(state.apply(paid)).toBe(false); // a duplicate moves nothing and counts nothing
  state.apply({ ...paid, eventId: 'e2', providerOrderId: 'sb-other' }); // about another provider order: refused
  state.apply({ ...paid, eventId: 'e3', providerOrderId: 'sb-other-2' }); // refused again: flagged once
  state.flagForReview();
  expect(events.slice(2)).toEqual([
    ['transition', 'sandbox', 'pending', 'processing'],
    ['flagged', 'sandbox', 'report_refused'],
    ['flagged', 'sandbox', 'open_too_long'],
  ]);
});

test('the sink functions count, and are never called while a history replays', async () => {
  const sinks = orderSinks().orderMetrics;
  const info = {} as WorkflowInfo;
  const value = async (
    metric: { get(): Promise<{ values: { labels: Record<string, unknown>; value: number }[] }> },
    labels: Record<string, string>,
  ) => (await metric.get()).values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x))?.value ?? 0;

  for (const fn of Object.values(sinks)) expect(fn.callDuringReplay).toBe(false);
  const before = {
    created: await value(ordersCreated, { provider: 'sinktest' }),
    moved: await value(orderTransitions, { provider: 'sinktest', from: 'pending', to: 'complete' }),
    flagged: await value(orderIntegrityAlerts, { provider: 'sinktest', alert: 'payment_differs' }),
    settled: await value(integratorWebhooksSettled, { integrator: 'sinktest', outcome: 'given_up' }),
  };
  await sinks.created.fn(info, 'sinktest');
  await sinks.transition.fn(info, 'sinktest', 'pending', 'complete');
  await sinks.flagged.fn(info, 'sinktest', 'payment_differs');
  await sinks.webhookFailed.fn(info, 'evt_1', 'sinktest', new Date().toISOString(), Date.now() + 1000);
  await sinks.webhookSettled.fn(info, 'evt_1', 'sinktest', 'given_up');
  expect(await value(ordersCreated, { provider: 'sinktest' })).toBe(before.created + 1);
  expect(await value(orderTransitions, { provider: 'sinktest', from: 'pending', to: 'complete' })).toBe(before.moved + 1);
  expect(await value(orderIntegrityAlerts, { provider: 'sinktest', alert: 'payment_differs' })).toBe(before.flagged + 1);
  expect(await value(integratorWebhooksSettled, { integrator: 'sinktest', outcome: 'given_up' })).toBe(before.settled + 1);
});

test('open orders are bucketed by the age of their run', () => {
  const HOUR = 3_600_000;
  expect([0, HOUR - 1, HOUR, 6 * HOUR, 24 * HOUR, 47 * HOUR, 48 * HOUR, 5 * 24 * HOUR, 30 * 24 * HOUR].map(ageBucket)).toEqual([
    'under_1h',
    'under_1h',
    '1h_to_6h',
    '6h_to_1d',
    '1d_to_2d',
    '1d_to_2d',
    '2d_to_5d',
    'over_5d',
    'over_5d',
  ]);
});
