import { NO_FAULTS, pickFaults } from '../../../../src/simulators/kit/faults';
import { shownOrder, type SimOrder } from '../../../../src/simulators/sandbox/orders';

const order: SimOrder = {
  id: 'sb-1',
  partner_order_id: '3b0f7c2e-5d6a-5f4b-9c1d-2e8a7b6c5d4f',
  status: 'CREATED',
  fiat_currency: 'USD',
  fiat_amount: '100.00',
  crypto_currency: 'BTC',
  network: 'bitcoin',
  crypto_amount: '0.001',
  wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  payment_method: 'card',
  country: 'US',
  checkout_url: 'http://127.0.0.1:4000/checkout/sb-1',
  created_at: '2026-11-29T00:00:00.000Z',
  updated_at: '2026-11-29T00:00:00.000Z',
};

describe('the oversizedField switch', () => {
  test('off by default: the order as it is', () => {
    expect(shownOrder(order, NO_FAULTS)).toBe(order);
  });

  test.each(['id', 'failure_reason', 'tx_hash'] as const)('pads %s to the length asked, leaving the order as it is', (field) => {
    const shown = shownOrder(order, { oversizedField: field, oversizedLength: 1000 });
    expect(shown[field]).toHaveLength(1000);
    expect(shown[field]!.startsWith(order[field] ?? '')).toBe(true);
    expect(order[field]?.length ?? 0).toBeLessThan(1000);
  });

  test('pads the checkout URL with a query parameter, so the page still opens', () => {
    const shown = shownOrder(order, { oversizedField: 'checkout_url', oversizedLength: 1000 });
    expect(shown.checkout_url).toHaveLength(1000);
    expect(new URL(shown.checkout_url).pathname).toBe('/checkout/sb-1');
  });

  test('another field, or a switch set through the faults route with the wrong type, changes nothing', () => {
    expect(shownOrder(order, { oversizedField: 'wallet_address', oversizedLength: 1000 })).toBe(order);
    expect(pickFaults({ oversizedField: 42, oversizedLength: '1000' })).toEqual({});
  });
});
