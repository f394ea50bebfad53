/**
 * The simulated Mercuryo's off-ramp read on its own terms: the sale's legs and the customer's
 * actions, the lookup item and callback bodies, and the sell quote and limit endpoints (supertest on
 * the app: no port, no webhook delivered).
 */
import request from 'supertest';
import { MERCURYO_SIMULATOR_CREDENTIALS } from '../../../../src/providers/mercuryo';
import { newSale, saleActions, saleSteps, type SimSale } from '../../../../src/simulators/mercuryo/sell-sale';
import { saleCallbackBody, saleItem } from '../../../../src/simulators/mercuryo/sell-views';
import { createMercuryoSimulator } from '../../../../src/simulators/mercuryo/server';

function sale(sell: string, deposit?: string): SimSale {
  const s = newSale({
    merchantTransactionId: 'm-1',
    widgetTerms: '[]',
    currency: 'BTC',
    network: 'BITCOIN',
    amount: '0.01',
    fiatCurrency: 'EUR',
    fiatAmount: '800.00',
    fee: '32.00',
    refundAddress: 'bc1qrefund',
    depositAddress: 'bc1qmercuryo',
  });
  s.sell.status = sell;
  if (deposit) s.deposit = { ...s.sell, id: 'd-1', status: deposit };
  return s;
}

describe('Mercuryo simulator sale states', () => {
  test.each([
    ['new', undefined, ['pay', 'fail', 'expire', 'refund', 'wrong_amount']],
    ['new', 'pending', []],
    ['pending', 'completed', ['refund']],
    ['succeeded', 'completed', []],
    ['failed', undefined, []],
    ['failed', 'completed', []],
  ])('sell %s, deposit %s allows %j', (sell, deposit, allowed) => {
    expect(saleActions(sale(sell, deposit))).toEqual(allowed);
  });

  test('each action walks the documented legs in order', () => {
    const arrival = [{ deposit: 'new', short: false }, { deposit: 'pending' }, { deposit: 'completed' }];
    expect(saleSteps(sale('new'), 'pay')).toEqual([...arrival, { sell: 'pending' }, { sell: 'succeeded' }]);
    expect(saleSteps(sale('new'), 'refund')).toEqual([...arrival, { sell: 'pending' }, { sell: 'failed' }]);
    expect(saleSteps(sale('new'), 'fail')).toEqual([{ deposit: 'new' }, { deposit: 'failed' }]);
    expect(saleSteps(sale('new'), 'expire')).toEqual([{ sell: 'failed' }]);
    expect(saleSteps(sale('new'), 'wrong_amount')?.[0]).toEqual({ deposit: 'new', short: true });
    expect(saleSteps(sale('new'), 'hold')).toBeUndefined();
  });
});

describe('Mercuryo simulator sale views', () => {
  test('the lookup item holds both legs; the deposit leg names the sell leg as its transaction', () => {
    const s = sale('pending', 'completed');
    const item = saleItem(s, 'w');
    expect(Object.keys(item)).toEqual(['sell', 'deposit']);
    expect(item.deposit).toMatchObject({ transaction_id: s.sell.id, address: 'bc1qmercuryo', merchant_transaction_id: 'm-1' });
    expect(item.sell).toMatchObject({ id: s.sell.id, fiat_amount: '800.00', fiat_currency: 'EUR', status: 'pending' });
    expect(saleItem(sale('new'), 'w').deposit).toBeUndefined();
  });

  test('a sell callback is type sell by card with the payout; a deposit callback has no payment method and no fiat', () => {
    const s = sale('succeeded', 'completed');
    expect(saleCallbackBody(s, 'sell').data).toMatchObject({ type: 'sell', payment_method: 'card', fiat_amount: '800.00' });
    const deposit = saleCallbackBody(s, 'deposit').data as Record<string, unknown>;
    expect(deposit).toMatchObject({ type: 'deposit', tx: { address: 'bc1qmercuryo' } });
    expect(deposit.payment_method).toBeUndefined();
    expect(deposit.fiat_amount).toBeUndefined();
  });
});

describe('Mercuryo simulator sell endpoints', () => {
  const sim = createMercuryoSimulator({
    publicUrl: 'http://127.0.0.1:1/mercuryo',
    brokerWebhookUrl: 'http://127.0.0.1:1/webhooks/mercuryo',
    credentials: MERCURYO_SIMULATOR_CREDENTIALS,
  });
  const widget = MERCURYO_SIMULATOR_CREDENTIALS.widgetId;
  afterAll(() => sim.stop());

  test('quotes a crypto amount: fiat out, one fee in the fiat currency', async () => {
    const res = await request(sim.app)
      .get('/v1.6/public/convert')
      .query({ from: 'BTC', to: 'EUR', type: 'sell', amount: '0.01', widget_id: widget });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ type: 'sell', currency: 'BTC', fiat_currency: 'EUR', fee_currency: 'EUR' });
    expect(Number(res.body.data.fiat_amount)).toBeGreaterThan(0);
  });

  test('refuses another widget, a fiat it does not pay out and an amount out of its limits', async () => {
    const ask = (q: Record<string, string>) =>
      request(sim.app)
        .get('/v1.6/public/convert')
        .query({ from: 'BTC', to: 'EUR', type: 'sell', amount: '0.01', widget_id: widget, ...q });
    expect((await ask({ widget_id: 'other' })).status).toBe(403);
    expect((await ask({ to: 'GBP' })).status).toBe(400);
    expect((await ask({ amount: '5' })).status).toBe(400);
  });

  test('lists the sell limits per pair and per crypto, keyed by code', async () => {
    const pairs = await request(sim.app).get('/v1.6/lib/limits/sell');
    expect(pairs.body.data).toContainEqual(expect.objectContaining({ crypto: 'BTC', network: 'BITCOIN', fiat: 'USD' }));
    const one = await request(sim.app)
      .get('/v1.6/public/currency-limits')
      .query({ from: 'EUR', to: 'BTC', type: 'sell', widget_id: widget });
    expect(Object.keys(one.body.data).sort()).toEqual(['BTC', 'EUR']);
  });

  test('a sell widget URL not signed for its wallet, IP and order id is refused', async () => {
    const res = await request(sim.app).get('/').query({
      widget_id: widget,
      type: 'sell',
      address: 'bc1q',
      merchant_transaction_id: 'm',
      signature: 'v2:00',
      currency: 'BTC',
      network: 'BITCOIN',
      amount: '0.01',
      fiat_currency: 'EUR',
    });
    expect(res.status).toBe(403);
  });
});
