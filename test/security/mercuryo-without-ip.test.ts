/**
 * The specification's sequence with its required fields only (`ip` is optional for offers and
 * orders), end to end through real HTTP, a real Temporal server and the Mercuryo simulator. Every
 * offer the broker returns must be orderable so: without `ip` Mercuryo, which signs its widget URL
 * for the customer's IP address, is left out with a reason; with `ip` on the offers, an order without
 * one is signed for the offer's and completes in Mercuryo's widget.
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { LocalStack } from '../../src/dev/local-stack';
import { callApi } from '../helpers/http';
import { checkout, draftOrder, offersPastPassingReasons, waitForStatus, type OrderDraft } from '../helpers/orders';
import { MARKETS } from '../helpers/provider-journeys';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

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

/** The offers path with the spec's required parameters, and the optional ones given. */
function offersPath(draft: OrderDraft, optional: { ip?: string; include_errors?: 'true' } = {}) {
  const query = new URLSearchParams({
    external_user_id: draft.external_user_id,
    currency_from: String(draft.from_currency),
    currency_to: String(draft.to_currency),
    amount_from: draft.from_amount,
    country: draft.country_code,
    ...optional,
  });
  return `/api/on_ramp/offers?${query.toString()}`;
}

/** GET /offers with the spec's required parameters, and the optional ones given. */
const offers = (draft: OrderDraft, optional: { ip?: string; include_errors?: 'true' } = {}) =>
  callApi(stack.apiUrl, offersPath(draft, optional));

/** An order with exactly the spec's required fields (GB needs no state). */
const requiredOnly = () => draftOrder({ provider_code: 'mercuryo', payment_method: 'card', ...MARKETS.GB });

test('offers without ip leave Mercuryo out, with reason ip_required under include_errors', async () => {
  const draft = requiredOnly();
  // Asked again while Mercuryo is left out for `timeout` (its first catalogue slow on a loaded
  // machine): the reason under test is given once the catalogue is in.
  const listed = await offersPastPassingReasons(stack.apiUrl, offersPath(draft, { include_errors: 'true' }), 'mercuryo');
  expect(listed.status).toBe(200);
  expect(listed.body.mercuryo).toEqual({ error: { code: 'ip_required', message: expect.stringContaining('`ip`') } });
  // The other providers are offered as before.
  expect(listed.body.sandbox).toMatchObject({ amount_from: '100.00' });

  const plain = await offers(draft);
  expect(plain.status).toBe(200);
  expect(plain.body).not.toHaveProperty('mercuryo');
  expect(plain.body).toHaveProperty('sandbox');
});

test("offers with ip; an order without ip is signed for the offer's ip and completes through Mercuryo's widget", async () => {
  const draft = requiredOnly();
  // The customer's browser is on this machine: the simulated widget sees 127.0.0.1.
  const listed = await offers(draft, { ip: '127.0.0.1' });
  expect(listed.status).toBe(200);
  expect(listed.body.mercuryo).toMatchObject({
    amount_from: '100.00',
    payment_methods: expect.arrayContaining([expect.objectContaining({ payment_method_code: 'card' })]),
  });

  expect(draft).not.toHaveProperty('ip');
  const created = await callApi(stack.apiUrl, '/api/on_ramp/orders', { body: draft });
  expect(created.status).toBe(200);
  const order = created.body;
  expect(order).toMatchObject({ status: 'created', external_order_id: draft.external_order_id });
  expect(order.redirect_url.startsWith(`${stack.simulatorUrl}/mercuryo/`)).toBe(true);

  // Mercuryo checks the URL's signature against the IP the widget is opened from.
  const page = await fetch(order.redirect_url);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('data-action="pay"');
  expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);

  const complete = await waitForStatus(stack.apiUrl, 'mercuryo', order.id, 'complete');
  expect(complete.extras.transaction_hash).toMatch(/^0x[0-9a-f]{64}$/);
});
