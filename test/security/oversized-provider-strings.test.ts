/**
 * Attack (or a provider's fault): a provider answers text longer than an order can hold. What a
 * provider reports is copied into the order (its memo, the memo's history event, the integrator
 * webhook it schedules), and a workflow task that records too much is refused by Temporal on every
 * attempt. Before the bounds of src/providers/kit/report-bounds.ts, a create answer with a
 * 1,100,000-character provider order id or a 2,090,000-character checkout URL, or a status answer
 * with a 2,090,000-character failure reason (provider answers are read up to 2 MiB), made the
 * order's workflow task over gRPC's 4 MiB: the order stayed where it was for ever, its creation
 * unanswered, a failure never recorded. A verified webhook (at most 256 KiB) could not do it at
 * once, but copied its text into every later memo and webhook.
 *
 * Through real HTTP and a real Temporal dev server, with the sandbox simulator's `oversizedField`
 * switch and genuinely signed webhooks: each such answer is refused at the boundary it crosses,
 * and the order goes on; a text that only describes (the failure reason) is cut to its bound
 * instead, so the report it is in still counts.
 */
import { orderIdFor } from '../../src/orders/request';
import { PROVIDER_TEXT_LIMITS } from '../../src/providers/kit/report-bounds';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { callApi, eventually } from '../helpers/http';
import { checkout, draftOrder, offerThenOrder, waitForStatus, type OrderDraft } from '../helpers/orders';
import { orderHistory, postWebhook, signedSandboxEvent } from '../helpers/provider-events';
import { useTestStack } from '../helpers/stack';

/** Integrator extras near their 8 KiB limit: with them, a 2,090,000-character text makes the memo over 2 MiB too. */
const LARGE_EXTRAS = { note: 'n'.repeat(8000) };

const started = useTestStack();

const faults = () => started.stack.simulators.get('sandbox').faults;

afterEach(() => {
  Object.assign(faults(), { oversizedField: '', oversizedLength: 0, dropWebhooks: false });
});

/** A sandbox order created while no switch is on, and its provider order's id. */
async function createdOrder(draft: OrderDraft = draftOrder()): Promise<{ id: string; redirect_url: string; providerOrderId: string }> {
  const created = await offerThenOrder(started.stack.apiUrl, draft);
  expect(created.status).toBe(200);
  return { ...created.body, providerOrderId: created.body.extras.provider_order_id };
}

const orderStatus = async (id: string) => (await callApi(started.stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${id}`)).body.status;

describe.each([
  { field: 'id', length: 1_100_000 },
  { field: 'checkout_url', length: 2_090_000 },
])('a create answer whose $field is $length characters long', ({ field, length }) => {
  test('fails the creation at once as provider_unavailable; the order is closed, not stuck', async () => {
    Object.assign(faults(), { oversizedField: field, oversizedLength: length });
    const draft = { ...draftOrder(), extras: LARGE_EXTRAS };
    const created = await offerThenOrder(started.stack.apiUrl, draft);
    expect([created.status, created.body.code]).toEqual([503, 'provider_unavailable']);
    expect(created.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const handle = started.env.client.workflow.getHandle(orderWorkflowId(orderIdFor('dev', draft.external_order_id)));
    expect((await handle.describe()).status.name).toBe('FAILED');
    const taskFailures = (await handle.fetchHistory()).events?.filter((e) => e.workflowTaskFailedEventAttributes) ?? [];
    expect(taskFailures).toHaveLength(0);

    // The same request once the provider answers within bounds: a new run makes the order.
    Object.assign(faults(), { oversizedField: '', oversizedLength: 0 });
    const again = await callApi(started.stack.apiUrl, '/api/on_ramp/orders', { body: draft });
    expect([again.status, again.body.status]).toEqual([200, 'created']);
  });
});

test('a status answer with a 2,090,000-character failure reason fails the order with the reason cut to its bound', async () => {
  const order = await createdOrder({ ...draftOrder(), extras: LARGE_EXTRAS });
  Object.assign(faults(), { dropWebhooks: true, oversizedField: 'failure_reason', oversizedLength: 2_090_000 });
  await fetch(order.redirect_url);
  expect((await checkout(order.redirect_url, 'fail')).status).toBe(200);
  // Only a poll can tell (webhooks dropped): it records the failure, its reason cut, not refused.
  const failed = await waitForStatus(started.stack.apiUrl, 'sandbox', order.id, 'failed');
  expect(failed.failure_reason).toMatch(/^card_declinedx+…$/);
  expect(Buffer.byteLength(failed.failure_reason)).toBeLessThanOrEqual(PROVIDER_TEXT_LIMITS.failureReason);
  const taskFailures = (await orderHistory(started.env.client, order.id)).filter((e) => e.workflowTaskFailedEventAttributes);
  expect(taskFailures).toHaveLength(0);
});

describe('a verified webhook with text over its bound', () => {
  const failureReason = 'x'.repeat(250_000);

  test('a 250,000-character failure reason is cut to its bound: the order fails with the cut reason', async () => {
    const order = await createdOrder();
    const webhook = signedSandboxEvent(order.id, { id: order.providerOrderId, status: 'FAILED', failure_reason: failureReason });
    const answer = await postWebhook(started.stack.apiUrl, 'sandbox', webhook);
    expect(answer.status).toBe(200);
    const failed = await waitForStatus(started.stack.apiUrl, 'sandbox', order.id, 'failed');
    expect(failed.failure_reason).toBe(`${'x'.repeat(PROVIDER_TEXT_LIMITS.failureReason - 3)}…`);
  });

  test('a provider order id one byte over its bound: 422 event_out_of_bounds', async () => {
    const order = await createdOrder();
    const id = 'p'.repeat(PROVIDER_TEXT_LIMITS.providerOrderId + 1);
    const answer = await postWebhook(started.stack.apiUrl, 'sandbox', signedSandboxEvent(order.id, { id, status: 'AWAITING_PAYMENT' }));
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { code: string }).code).toBe('event_out_of_bounds');
  });

  test("the simulator's own webhooks with a 40,000-character transaction hash are refused, and the order completes once they are within bounds", async () => {
    const order = await createdOrder();
    Object.assign(faults(), { oversizedField: 'tx_hash', oversizedLength: 40_000 });
    await fetch(order.redirect_url);
    expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);
    const simulator = started.stack.simulator;
    const answers = () => simulator.webhooks.attempts.filter((a) => a.orderKey === order.providerOrderId).map((a) => a.httpStatus);
    // The first attempt of each of its three webhooks (AWAITING_PAYMENT, PAYMENT_RECEIVED, COMPLETED) at least.
    await eventually(() => Promise.resolve(answers().length >= 3 ? true : undefined), 'three webhook attempts');
    expect(new Set(answers())).toEqual(new Set([422]));
    // Polls meet the same hash and are ignored.
    expect(await orderStatus(order.id)).not.toBe('complete');

    Object.assign(faults(), { oversizedField: '', oversizedLength: 0 });
    const done = await waitForStatus(started.stack.apiUrl, 'sandbox', order.id, 'complete');
    expect(done.extras.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
