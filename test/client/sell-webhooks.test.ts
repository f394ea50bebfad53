/** The client's reading of off-ramp webhooks and sell offers, without a broker: signed bodies and answers as the broker makes them. */
import { Webhook } from 'standardwebhooks';
import { isSellOrderEvent, sortSellOffers, verifyWebhook } from '../../clients/typescript/src';
import { DEFAULT_DEV_WEBHOOK_SECRET as SECRET } from '../../src/config/env';

function signed(body: string): Record<string, string> {
  const at = new Date();
  return {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(SECRET).sign('evt_1', at, body),
  };
}

const statusChanged = (data: Record<string, unknown>) =>
  JSON.stringify({
    type: 'order.status_changed',
    timestamp: new Date().toISOString(),
    data: { id: 'o1', status: 'complete', sequence: 3, ...data },
  });

test('a sell order event is typed as one: kind off_ramp, its deposit readable', () => {
  const body = statusChanged({ kind: 'off_ramp', deposit: { address: '0xabc', network: 'ethereum', amount: '0.5' } });
  const event = verifyWebhook(signed(body), body, SECRET);
  expect(isSellOrderEvent(event)).toBe(true);
  if (!isSellOrderEvent(event)) throw new Error('not a sell order event');
  expect(event.data.deposit?.address).toBe('0xabc');
});

test('a buy order event (no kind) is not a sell order event', () => {
  const body = statusChanged({});
  const event = verifyWebhook(signed(body), body, SECRET);
  expect(event.type).toBe('order.status_changed');
  expect(isSellOrderEvent(event)).toBe(false);
});

test('an order kind the client does not know is an invalid_response problem, not read as a buy order', () => {
  const body = statusChanged({ kind: 'swap' });
  expect(() => verifyWebhook(signed(body), body, SECRET)).toThrow(expect.objectContaining({ code: 'invalid_response', status: 0 }));
});

const sellOffer = (payout: string) => ({
  rate: '1',
  inverted_rate: '1',
  amount_from: '0.50000000',
  amount_expected_to: payout,
  fee: '1.00',
  total_fee_amount: '1.00',
  fees: { processing: '0.50', network: '0.50' },
  payout_methods: [{ payout_method_code: 'sepa', fee: '1.00' }],
  expires_at: '2026-11-30T12:00:00.000Z',
});

test('sell offers: the highest payout first, exactly (no floating point), ties by provider code; the left out apart', () => {
  const { offers, leftOut } = sortSellOffers({
    low: sellOffer('999.99'),
    high: sellOffer('1000.00'),
    tie: sellOffer('1000.0'),
    // 9007199254740993.01 and …992.99 are one float apart at most: only exact decimals order them.
    big: sellOffer('9007199254740993.01'),
    bigger: sellOffer('9007199254740993.02'),
    gone: { error: { code: 'payout_method', message: 'no sepa here' } },
  });
  expect(offers.map((o) => o.provider_code)).toEqual(['bigger', 'big', 'high', 'tie', 'low']);
  expect(leftOut).toEqual([{ provider_code: 'gone', code: 'payout_method', message: 'no sepa here' }]);
});
