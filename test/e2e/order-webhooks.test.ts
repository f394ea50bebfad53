/**
 * An order's webhooks on request, against a real Temporal dev server and a receiver that verifies
 * each delivery with the standardwebhooks package: POST …/webhooks/resend sends the latest webhook
 * again with the same webhook-id and bytes; GET …/webhooks lists the workflow's delivery attempts
 * (answered by a query, also once the order's workflow has closed). Another integrator gets 404.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { sha256Hex } from '../../src/config/integrators';
import type { LocalStack } from '../../src/dev/local-stack';
import { orderWorkflowId } from '../../src/temporal/order-contract';
import { FAST_TIMINGS, testConfig } from '../helpers/config';
import { callApi, eventually } from '../helpers/http';
import { IntegratorReceiver } from '../helpers/integrator-receiver';
import { checkout, draftOrder, offerThenOrder, waitForStatus } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

/** An integrator with no webhook endpoint. */
const OTHER_KEY = 'obk_test_other_00000000000000000000000000';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: IntegratorReceiver;

beforeAll(async () => {
  env = await startTemporal();
  receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const receiverUrl = await receiver.start();
  const base = testConfig({}, { ONRAMP_WEBHOOK_URL: receiverUrl });
  stack = await startTestStack(env, {
    env: { ONRAMP_WEBHOOK_URL: receiverUrl },
    config: {
      integrators: [...base.integrators, { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] }],
      orderTimings: FAST_TIMINGS,
    },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
  await env?.teardown();
});

const resend = (orderId: string, apiKey?: string) =>
  callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox/webhooks/resend?code=${orderId}`, { method: 'POST', apiKey });
const deliveries = (orderId: string, apiKey?: string) =>
  callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox/webhooks?code=${orderId}`, { apiKey });

/** Waits until the order's webhooks have reached `status`; returns the delivered ones. */
function deliveredUntil(orderId: string, status: string) {
  return eventually(() => {
    const delivered = receiver.delivered(orderId);
    return Promise.resolve(delivered.some((w) => w.body.data.status === status) ? delivered : undefined);
  }, `a ${status} webhook for ${orderId}`);
}

/** Waits until the order's workflow has closed. */
function closed(orderId: string) {
  return eventually(async () => {
    const { status } = await env.client.workflow.getHandle(orderWorkflowId(orderId)).describe();
    return status.name === 'RUNNING' ? undefined : status.name;
  }, `the workflow of ${orderId} to close`);
}

test("resend: the latest webhook again, the same webhook-id and bytes, verified; another integrator's order is 404", async () => {
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'pay');
  const original = (await deliveredUntil(order.id, 'complete')).at(-1)!;
  // Resend rebuilds the latest webhook from the order's record, which may be saved a moment after
  // the worker sent that webhook (docs/api.md, "Webhooks to the integrator").
  await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');

  const res = await resend(order.id);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    webhook_id: original.webhookId,
    sequence: 4,
    delivered: true,
    status_code: 204,
    latency_ms: expect.any(Number),
  });
  const both = receiver.attempts(original.webhookId);
  expect(both).toHaveLength(2);
  expect(both.every((w) => w.verified && w.answered === 204)).toBe(true);
  expect(both[1]!.raw).toBe(both[0]!.raw);

  // Another integrator: its own ownership check first (404, the order is not theirs), for both routes.
  for (const call of [resend, deliveries]) {
    const other = await call(order.id, OTHER_KEY);
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(other.body.code).toBe('not_found');
  }
  expect(receiver.attempts(original.webhookId)).toHaveLength(2);
  // The wrong provider is 404 too.
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/transak/webhooks/resend?code=${order.id}`, { method: 'POST' })).status).toBe(
    404,
  );
});

test('resend without a webhook endpoint is 404', async () => {
  const draft = draftOrder();
  const offers = await callApi(
    stack.apiUrl,
    `/api/on_ramp/offers?${new URLSearchParams({
      external_user_id: draft.external_user_id,
      currency_from: String(draft.from_currency),
      currency_to: String(draft.to_currency),
      amount_from: draft.from_amount,
      country: draft.country_code,
      payment_method: draft.payment_method,
    }).toString()}`,
    { apiKey: OTHER_KEY },
  );
  expect(offers.status).toBe(200);
  const { body: theirs, status } = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft, apiKey: OTHER_KEY });
  expect(status).toBe(200);
  const res = await resend(theirs.id, OTHER_KEY);
  expect(res.status).toBe(404);
  expect(res.body.code).toBe('not_found');
  expect(res.body.detail).toMatch(/webhook_url/);
});

test('deliveries: a failed attempt (500), then the delivered one, with the same webhook-id; still answered once the workflow closed', async () => {
  receiver.answerNext({ status: 500 });
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'pay');
  const delivered = await deliveredUntil(order.id, 'complete');
  await closed(order.id);

  const res = await deliveries(order.id);
  expect(res.status).toBe(200);
  const list = res.body.deliveries as any[];
  const first = delivered[0]!.webhookId;
  expect(list.slice(0, 2)).toEqual([
    {
      webhook_id: first,
      sequence: 1,
      attempt: 1,
      attempted_at: expect.any(String),
      outcome: 'failed',
      status_code: 500,
      error: 'HTTP 500',
    },
    { webhook_id: first, sequence: 1, attempt: 2, attempted_at: expect.any(String), outcome: 'delivered', status_code: 204 },
  ]);
  expect(Date.parse(list[1].attempted_at)).toBeGreaterThanOrEqual(Date.parse(list[0].attempted_at));
  // One delivered attempt for each webhook the receiver accepted, in order.
  expect(list.filter((d) => d.outcome === 'delivered').map((d) => d.webhook_id)).toEqual(delivered.map((w) => w.webhookId));
});
