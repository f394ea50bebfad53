/**
 * The integrator's walk through real HTTP and a real Temporal server:
 * offers -> order -> checkout page -> pay -> complete, and the refusals along the way.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEV_SANDBOX_WEBHOOK_SECRET } from '../../src/config';
import type { LocalStack } from '../../src/dev/local-stack';
import { ORDER_STATUS_KEY, orderWorkflowId } from '../../src/temporal/order-contract';
import { callApi } from '../helpers/http';
import { BTC, checkout, draftOrder, offersPastPassingReasons, offersQuery, offerThenOrder, USD, waitForStatus } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';
import { signedSandboxWebhook } from '../helpers/webhooks';

let env: TestWorkflowEnvironment;
let stack: LocalStack;

beforeAll(async () => {
  env = await startTemporal();
  stack = await startTestStack(env);
});

afterAll(async () => {
  await stack?.stop();
  await env?.teardown();
});

test('offers, order, checkout pay: the order completes and Temporal shows it', async () => {
  const draft = draftOrder();
  // Asked again, as an integrator would, while the sandbox's first quote is slow on a loaded machine.
  const offers = await offersPastPassingReasons(stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}&include_errors=true`, 'sandbox');
  expect(offers.status).toBe(200);
  const offer = offers.body.sandbox;
  expect(offer.amount_from).toBe('100.00');
  expect(offer.payment_methods).toEqual([expect.objectContaining({ payment_method_code: 'card' })]);
  expect(Date.parse(offer.expires_at)).toBeGreaterThan(Date.now());

  const created = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft });
  expect(created.status).toBe(200);
  const order = created.body;
  expect(order).toMatchObject({
    status: 'created',
    from_currency: USD,
    to_currency: BTC,
    from_amount: '100.00',
    to_amount: offer.amount_expected_to,
    external_order_id: draft.external_order_id,
    extras: { provider_status: 'CREATED' },
  });
  expect(order.redirect_url.startsWith(`${stack.simulatorUrl}/sandbox/checkout/`)).toBe(true);

  // The customer opens the checkout page: the provider reports "awaiting payment".
  const page = await fetch(order.redirect_url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('data-action="pay"');
  await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'pending');

  expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);
  const complete = await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'complete');
  expect(complete.extras.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(Date.parse(complete.updated_at)).toBeGreaterThan(Date.parse(complete.created_at));

  const description = await env.client.workflow.getHandle(orderWorkflowId(order.id)).describe();
  expect(description.typedSearchAttributes.get(ORDER_STATUS_KEY)).toBe('complete');
});

test('checkout fail: the order fails with a failure_reason', async () => {
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  await checkout(order.redirect_url, 'fail');
  const failed = await waitForStatus(stack.apiUrl, 'sandbox', order.id, 'failed');
  expect(failed.failure_reason).toBe('card_declined');
});

test('the same request twice gives the same order and one provider order; another body is a conflict', async () => {
  const draft = draftOrder();
  const before = stack.simulator.orders.size;
  const [first, second] = await Promise.all([offerThenOrder(stack.apiUrl, draft), offerThenOrder(stack.apiUrl, draft)]);
  expect(first.status).toBe(200);
  expect(second.status).toBe(200);
  expect(second.body.id).toBe(first.body.id);
  expect(stack.simulator.orders.size).toBe(before + 1);

  const again = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft });
  expect(again.body.id).toBe(first.body.id);

  const conflict = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: { ...draft, from_amount: '150.00' } });
  expect(conflict.status).toBe(409);
  expect(conflict.body.code).toBe('idempotency_conflict');
  expect(conflict.headers.get('content-type')).toContain('application/problem+json');
});

test('an invalid wallet address is refused and nothing is created at the provider', async () => {
  const before = stack.simulator.orders.size;
  const res = await offerThenOrder(stack.apiUrl, draftOrder({ wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7' }));
  expect(res.status).toBe(422);
  expect(res.body.code).toBe('invalid_wallet_address');
  expect(stack.simulator.orders.size).toBe(before);
});

test('an order without a live offer is refused with offer_expired', async () => {
  const res = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draftOrder() });
  expect(res.status).toBe(422);
  expect(res.body.code).toBe('offer_expired');
});

test('a forged provider webhook is refused with 401 and changes nothing', async () => {
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  const { body, signature } = signedSandboxWebhook('not-the-secret', {
    ...stack.simulator.orders.get(order.extras.provider_order_id),
    status: 'COMPLETED',
  });
  const response = await fetch(`${stack.apiUrl}/api/webhooks/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'sandbox-signature': signature },
    body,
  });
  expect(response.status).toBe(401);
  expect(response.headers.get('content-type')).toContain('application/problem+json');
  const status = await callApi(stack.apiUrl, `/api/on_ramp/orders/sandbox?code=${order.id}`);
  expect(status.body.status).toBe('created');
});

test('a signed webhook for an unknown order is acknowledged', async () => {
  const { body, signature } = signedSandboxWebhook(DEV_SANDBOX_WEBHOOK_SECRET, {
    partner_order_id: '00000000-0000-5000-8000-000000000000',
    status: 'COMPLETED',
  });
  const response = await fetch(`${stack.apiUrl}/api/webhooks/sandbox`, {
    method: 'POST',
    headers: { 'sandbox-signature': signature },
    body,
  });
  expect(response.status).toBe(200);
});

test('the status endpoint hides other providers and unknown ids, and needs a code', async () => {
  const { body: order } = await offerThenOrder(stack.apiUrl, draftOrder());
  expect((await callApi(stack.apiUrl, `/api/on_ramp/orders/other?code=${order.id}`)).status).toBe(404);
  expect((await callApi(stack.apiUrl, '/api/on_ramp/orders/sandbox?code=8d3f6f8e-1b2c-4d5e-9f00-112233445566')).status).toBe(404);
  const missing = await callApi(stack.apiUrl, '/api/on_ramp/orders/sandbox');
  expect(missing.status).toBe(400);
  expect(missing.body.errors[0].path).toBe('code');
});
