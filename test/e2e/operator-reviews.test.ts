/**
 * The operators' review queue end to end: a real Temporal dev server, the broker, the sandbox
 * simulator and an integrator endpoint. Orders that need a person (a webhook given up on, a payment
 * that differs) come into the queue by themselves; operators act on them through /api/operator with
 * their own key; every action is in the review's audit (who, the note, the outcome) and, for an
 * order still running, in the order's own history; nothing moves an order but its provider's word.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { DEFAULT_DEV_OPERATOR_KEY, DEV_OPERATOR_ID } from '../../src/config/operators';
import type { LocalStack } from '../../src/dev/local-stack';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { TEST_API_KEY } from '../helpers/config';
import { callApi, callOperatorApi, eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { expectConforms } from '../helpers/openapi';
import { checkout, draftOrder, offerThenOrder, waitForStatus } from '../helpers/orders';
import { offerThenSellOrder } from '../helpers/sell-orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;

beforeAll(async () => {
  env = await startTemporal();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  stack = await startTestStack(env, { env: { ONRAMP_WEBHOOK_URL: await receiver.start() } });
});

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
});

/** A call to the operator API with the development operator's key (or `key`). */
const operator = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) => callOperatorApi(stack.apiUrl, path, init);

async function newOrder(): Promise<{ id: string; redirect_url: string }> {
  const created = await offerThenOrder(stack.apiUrl, draftOrder());
  expect(created.status).toBe(200);
  return created.body as { id: string; redirect_url: string };
}

/** The order's review once `ready` holds for it. */
function reviewWhen(id: string, ready: (review: any) => boolean, what: string) {
  return eventually(async () => {
    const res = await operator(`/reviews/${id}`);
    return res.status === 200 && ready(res.body) ? res.body : undefined;
  }, what);
}

/** The review ids the queue lists for `query`, every page. */
async function queued(query: string): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  do {
    const res = await operator(`/reviews?${query}&limit=2${token ? `&page_token=${token}` : ''}`);
    expect(res.status).toBe(200);
    expectConforms('GET', '/api/operator/reviews', res.status, res.body);
    ids.push(...res.body.reviews.map((r: { review_id: string }) => r.review_id));
    token = res.body.next_page_token;
  } while (token);
  return ids;
}

/** The operator requests the order's workflow received (its history's signals). */
async function operatorSignals(orderId: string): Promise<string[]> {
  const { events } = await env.client.workflow.getHandle(orderWorkflowId(orderId)).fetchHistory();
  return (events ?? []).flatMap((e) =>
    e.workflowExecutionSignaledEventAttributes?.signalName === 'operatorRequest' ? ['operatorRequest'] : [],
  );
}

test("only an operator's key opens the operator API, and an operator's key opens no integrator route", async () => {
  for (const key of [TEST_API_KEY, 'obo_not_a_key_000000000000000000000000']) {
    const res = await operator('/reviews', { key });
    expect([res.status, res.body.code]).toEqual([401, 'unauthorized']);
    expect(res.headers.get('www-authenticate')).toContain('onramp-operator');
  }
  const asIntegrator = await callApi(stack.apiUrl, '/api/on_ramp/orders', { apiKey: DEFAULT_DEV_OPERATOR_KEY });
  expect(asIntegrator.status).toBe(401);
});

test("a page token Temporal did not make is the caller's mistake (400), not an outage", async () => {
  // Not of the form, of the form with a wrong check, and a real token of other filters.
  await newOrder();
  const first = await operator('/reviews?limit=1');
  const real = first.body.next_page_token as string | undefined;
  for (const token of ['bm90LWEtdG9rZW4', 'bm90LWEtdG9rZW4.0123456789abcdef', ...(real ? [real] : [])]) {
    const filters = token === real ? '&reason=payment_differs' : '';
    const res = await operator(`/reviews?page_token=${token}${filters}`);
    expect([token, res.status, res.body.code, res.body.errors?.[0]?.path]).toEqual([token, 400, 'validation_error', 'page_token']);
    expectConforms('GET', '/api/operator/reviews', res.status, res.body);
  }
});

test('a webhook given up on opens the review; the resend delivers it and the audit says who and what came of it', async () => {
  // The first attempt and the four retries of the order's first webhook fail.
  receiver.answerNext(...Array.from({ length: 5 }, () => ({ status: 500 })));
  const order = await newOrder();
  const review = await reviewWhen(order.id, (r) => r.open.includes('webhook_not_delivered'), 'the webhook to be given up on');
  expect(review.subject).toEqual({ kind: 'order', provider_code: 'sandbox', order_id: order.id, integrator_id: 'dev' });
  expect(review.reasons[0]).toMatchObject({ reason: 'webhook_not_delivered', key: `evt_${order.id}_1`, source: 'order' });
  expectConforms('GET', '/api/operator/reviews/{review_id}', 200, review);
  expect(await queued('reason=webhook_not_delivered')).toContain(order.id);

  const resent = await operator(`/orders/${order.id}/resend_webhook`, { body: { note: 'endpoint fixed by the integrator' } });
  expect(resent.status).toBe(200);
  expectConforms('POST', '/api/operator/orders/{order_id}/resend_webhook', resent.status, resent.body);
  expect(resent.body).toMatchObject({
    action: 'resend_webhook',
    operator_id: DEV_OPERATOR_ID,
    note: 'endpoint fixed by the integrator',
    webhook_id: `evt_${order.id}_1`,
    delivered: true,
    outcome: { outcome: 'done' },
  });
  // Five refused attempts, then the resend, accepted: the same webhook-id, verified.
  expect(receiver.attempts(`evt_${order.id}_1`).map((w) => [w.answered, w.verified])).toEqual([
    ...Array.from({ length: 5 }, () => [500, true]),
    [204, true],
  ]);

  // Acknowledged with a note, it leaves the queue; the order is still running: its history has both requests.
  const ack = await operator(`/reviews/${order.id}/acknowledge`, {
    body: { note: 'delivered by hand', reasons: ['webhook_not_delivered'] },
  });
  expect(ack.status).toBe(200);
  expectConforms('POST', '/api/operator/reviews/{review_id}/acknowledge', ack.status, ack.body);
  await eventually(
    async () => ((await queued('reason=webhook_not_delivered')).includes(order.id) ? undefined : true),
    'the review to leave the queue',
  );
  const audited = await reviewWhen(order.id, (r) => r.actions.length === 2 && r.actions.every((a: any) => a.outcome), 'the audit');
  expect(audited.actions.map((a: any) => [a.action, a.operator_id, a.note, a.outcome.outcome])).toEqual([
    ['resend_webhook', DEV_OPERATOR_ID, 'endpoint fixed by the integrator', 'done'],
    ['acknowledge', DEV_OPERATOR_ID, 'delivered by hand', 'done'],
  ]);
  expect(audited.reasons[0].acknowledged).toMatchObject({ operator_id: DEV_OPERATOR_ID, note: 'delivered by hand' });
  expect(audited.open).toEqual([]);
  expect(await operatorSignals(order.id)).toEqual(['operatorRequest', 'operatorRequest']);
  // Nothing is left to acknowledge.
  expect((await operator(`/reviews/${order.id}/acknowledge`, { body: { note: 'again' } })).body.code).toBe('action_refused');
});

test('a payment that differs comes into the queue by itself, and stays until acknowledged, after the order closed', async () => {
  const faults = stack.simulators.get('sandbox').faults as unknown as Record<string, unknown>;
  const order = await newOrder();
  Object.assign(faults, { paidFiatAmount: '10.00' });
  try {
    await fetch(order.redirect_url);
    expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);
    await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');
  } finally {
    delete faults.paidFiatAmount;
  }
  const review = await reviewWhen(order.id, (r) => r.open.includes('payment_differs'), 'the payment_differs review');
  expect(review.reasons[0].detail).toContain('from_amount: ordered 100.00, paid 10');
  expect(review.order).toMatchObject({ id: order.id, status: 'complete', from_amount: expect.stringMatching(/^10(\.0+)?$/) });
  expect(await queued('reason=payment_differs&provider_code=sandbox&integrator_id=dev')).toContain(order.id);
  expect(await queued('reason=payment_differs&integrator_id=someone-else')).not.toContain(order.id);

  // The order's workflow has ended (complete, its webhooks delivered): it takes no poll, but its review is acted on.
  await env.client.workflow.getHandle(orderWorkflowId(order.id)).result();
  const poll = await operator(`/orders/${order.id}/poll`, { body: {} });
  expect([poll.status, poll.body.code]).toEqual([409, 'order_closed']);
  expect((await operator(`/reviews/${order.id}/acknowledge`, { body: {} })).body.code).toBe('validation_error');
  const ack = await operator(`/reviews/${order.id}/acknowledge`, { body: { note: 'customer paid 10.00; integrator told' } });
  expect(ack.body).toMatchObject({ action: 'acknowledge', operator_id: DEV_OPERATOR_ID, outcome: { outcome: 'done' } });
  expect(ack.body).not.toHaveProperty('reasons');
  await eventually(
    async () => ((await queued('reason=payment_differs')).includes(order.id) ? undefined : true),
    'the review to leave the queue',
  );
  // The order keeps its flag: it says what was found; the queue says what still needs a person.
  const kept = await operator(`/reviews/${order.id}`);
  expect(kept.body.order.discrepancies).toEqual([{ field: 'from_amount', ordered: '100.00', reported: kept.body.order.from_amount }]);
});

test('poll now: the order asks its provider at once, its history and the audit record it with the outcome', async () => {
  const order = await newOrder();
  const res = await operator(`/orders/${order.id}/poll`, { body: { note: 'customer says they paid' } });
  expect(res.status).toBe(202);
  expectConforms('POST', '/api/operator/orders/{order_id}/poll', res.status, res.body);
  expect(res.body).toMatchObject({ action: 'poll', operator_id: DEV_OPERATOR_ID, note: 'customer says they paid' });
  const review = await reviewWhen(order.id, (r) => r.actions[0]?.outcome !== undefined, 'the poll outcome');
  expect(review.actions[0]).toMatchObject({
    request_id: res.body.request_id,
    outcome: { outcome: 'done', detail: expect.stringContaining('polled') },
  });
  // A review opened by an action alone is not in the queue: nothing needs a person.
  expect(review.open).toEqual([]);
  expect(await queued('provider_code=sandbox')).not.toContain(order.id);
  expect(await operatorSignals(order.id)).toEqual(['operatorRequest']);
});

test('cancel: an unpaid order is cancelled at its provider and fails by its report; a paid one is refused', async () => {
  const unpaid = await newOrder();
  expect((await operator(`/orders/${unpaid.id}/cancel`, { body: {} })).body.code).toBe('validation_error');
  const res = await operator(`/orders/${unpaid.id}/cancel`, { body: { note: 'customer asked to cancel' } });
  expect(res.status).toBe(202);
  expectConforms('POST', '/api/operator/orders/{order_id}/cancel', res.status, res.body);
  const failed = await waitForStatus(stack.apiUrl, 'sandbox', unpaid.id, 'failed');
  expect(failed.failure_reason).toBe('cancelled_by_partner');
  const review = await reviewWhen(unpaid.id, (r) => r.actions[0]?.outcome !== undefined, 'the cancel outcome');
  expect(review.actions[0]).toMatchObject({ action: 'cancel', note: 'customer asked to cancel', outcome: { outcome: 'done' } });

  const paid = await newOrder();
  await fetch(paid.redirect_url);
  expect((await checkout(paid.redirect_url, 'hold')).status).toBe(200);
  await waitForStatus(stack.apiUrl, 'sandbox', paid.id, 'hold');
  const refused = await operator(`/orders/${paid.id}/cancel`, { body: { note: 'too late' } });
  expect([refused.status, refused.body.code]).toEqual([409, 'action_refused']);
  expectConforms('POST', '/api/operator/orders/{order_id}/cancel', refused.status, refused.body);
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${paid.id}`)).body.status).toBe('hold');

  const unknown = await operator('/orders/00000000-0000-4000-8000-000000000000/cancel', { body: { note: 'x' } });
  expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
});

test('a sell order: its webhook is resent and its review audited, but it takes no poll or cancel, nor any request in its history', async () => {
  // Its first webhook given up on, as a buy's: the review opens by itself.
  receiver.answerNext(...Array.from({ length: 5 }, () => ({ status: 500 })));
  const { created } = await offerThenSellOrder(stack.apiUrl);
  expect(created.status).toBe(200);
  const order = created.body as { id: string; redirect_url: string };
  await reviewWhen(order.id, (r) => r.open.includes('webhook_not_delivered'), 'the sell webhook to be given up on');

  for (const action of ['poll', 'cancel']) {
    const refused = await operator(`/orders/${order.id}/${action}`, { body: { note: 'try' } });
    expect([refused.status, refused.body.code]).toEqual([409, 'action_refused']);
    expect(refused.body.detail).toContain('sell (off-ramp) order');
  }
  const resent = await operator(`/orders/${order.id}/resend_webhook`, { body: { note: 'endpoint back' } });
  expect(resent.status).toBe(200);
  // Its latest webhook again (the sell order may be waiting for its deposit by now: its second).
  expect(resent.body).toMatchObject({
    webhook_id: `evt_${order.id}_${resent.body.sequence}`,
    delivered: true,
    outcome: { outcome: 'done' },
  });
  const delivered = receiver.attempts(resent.body.webhook_id).at(-1)!;
  expect([delivered.answered, delivered.verified, delivered.body.data.kind]).toEqual([204, true, 'off_ramp']);
  const ack = await operator(`/reviews/${order.id}/acknowledge`, { body: { note: 'resent', reasons: ['webhook_not_delivered'] } });
  expect(ack.status).toBe(200);
  const audited = await reviewWhen(order.id, (r) => r.actions.length === 2 && r.actions.every((a: any) => a.outcome), 'the audit');
  expect(audited.actions.map((a: any) => [a.action, a.outcome.outcome])).toEqual([
    ['resend_webhook', 'done'],
    ['acknowledge', 'done'],
  ]);
  // The sell workflow has no handler for operator requests: none was sent to wait there unanswered.
  expect(await operatorSignals(order.id)).toEqual([]);
  await checkout(order.redirect_url, 'pay');
  await eventually(
    async () =>
      (await callApi(stack.apiUrl, `/api/off_ramp/orders/sandbox?code=${order.id}`)).body.status === 'complete' ? true : undefined,
    'complete',
  );
});
