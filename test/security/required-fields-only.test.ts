/**
 * The specification's sequence with its required fields only, as a new integrator follows it: offers
 * (no ip, no payment method), then an order for the first payment method of an offer, then the
 * customer pays on the provider's page. Every offer the broker returns must become an order that
 * completes; a provider that cannot take an order without the customer's IP is not offered, and
 * says why.
 */
import { callApi } from '../helpers/http';
import { BTC, BTC_ADDRESS, checkout, waitForStatus } from '../helpers/orders';
import { MARKETS, JOURNEYS } from '../helpers/provider-journeys';
import { useTestStack } from '../helpers/stack';

const started = useTestStack();
let sequence = 0;

type Market = (typeof MARKETS)[keyof typeof MARKETS];

/** GET /offers with the required parameters only (and `ip` when given). */
async function offersFor(market: Market, userId: string, extra: Record<string, string> = {}) {
  const query = new URLSearchParams({
    external_user_id: userId,
    currency_from: String(market.from_currency),
    currency_to: String(BTC),
    amount_from: '100',
    country: market.country_code,
    ...('state_code' in market ? { state: market.state_code } : {}),
    include_errors: 'true',
    ...extra,
  });
  const res = await callApi(started.stack.apiUrl, `/api/on_ramp/offers?${query.toString()}`);
  expect(res.status).toBe(200);
  return res.body as Record<string, { payment_methods?: { payment_method_code: string }[]; error?: { code: string } }>;
}

/** POST /orders with the required fields only, for the offer's first payment method; then the customer pays. */
async function orderAndPay(code: string, market: Market, userId: string, paymentMethod: string) {
  sequence += 1;
  const created = await callApi(started.stack.apiUrl, '/api/on_ramp/orders', {
    body: {
      provider_code: code,
      from_currency: market.from_currency,
      to_currency: BTC,
      from_amount: '100',
      wallet_address: BTC_ADDRESS,
      payment_method: paymentMethod,
      country_code: market.country_code,
      ...('state_code' in market ? { state_code: market.state_code } : {}),
      external_user_id: userId,
      external_order_id: `required-only-${code}-${sequence}`,
    },
  });
  expect({ code, status: created.status }).toEqual({ code, status: 200 });
  await fetch(created.body.redirect_url);
  expect((await checkout(created.body.redirect_url, 'pay')).status).toBe(200);
  return waitForStatus(started.stack.apiUrl, code, created.body.id, 'complete');
}

describe.each(JOURNEYS)('$code in $market', ({ code, market: marketName }) => {
  const market = MARKETS[marketName];

  test('with the required fields only, its offer becomes an order that completes, or it says why it is not offered', async () => {
    const userId = `user-${code}-required`;
    const offers = await offersFor(market, userId);
    const offer = offers[code]!;
    if (code === 'mercuryo') {
      expect(offer.error?.code).toBe('ip_required');
      return;
    }
    expect(offer.payment_methods?.length).toBeGreaterThan(0);
    const done = await orderAndPay(code, market, userId, offer.payment_methods![0]!.payment_method_code);
    expect(done.from_amount).toMatch(/^100(\.0+)?$/);
    expect(done.discrepancies).toBeUndefined();
  });

  test('every other provider it offers in that market completes too', async () => {
    const userId = `user-${code}-others`;
    const offers = await offersFor(market, userId);
    const offered = Object.entries(offers).filter(([, offer]) => offer.payment_methods);
    expect(offered.length).toBeGreaterThan(0);
    for (const [other, offer] of offered) await orderAndPay(other, market, userId, offer.payment_methods![0]!.payment_method_code);
    // Whoever is left out says why; without an ip, that may be ip_required and nothing else is an order refusal.
    for (const [, offer] of Object.entries(offers).filter(([, o]) => o.error)) expect(offer.error!.code).not.toBe('unavailable');
  });
});

test('the ip sent with the offer alone is enough for a Mercuryo order without one', async () => {
  const market = MARKETS.GB;
  const offers = await offersFor(market, 'user-mercuryo-ip', { ip: '127.0.0.1' });
  const done = await orderAndPay('mercuryo', market, 'user-mercuryo-ip', offers.mercuryo!.payment_methods![0]!.payment_method_code);
  expect(done.status).toBe('complete');
});
