import { ORDER_STATUSES } from '../../../src/domain/order-status';
import { marketOf, outcomeOfOrder, refusedOutcome, type SettledOrder } from '../../../src/ranking/order-outcome';

const order = (over: Partial<SettledOrder['order']> = {}): SettledOrder => ({
  providerCode: 'moonpay',
  integratorId: 'acme',
  order: {
    id: '0b7f8c1e-0000-4000-8000-000000000001',
    status: 'complete',
    country_code: 'GB',
    payment_method: 'card',
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:05:00.000Z',
    external_user_id: 'user-1',
    ...over,
  },
});

describe('outcomeOfOrder', () => {
  test('a complete order: its market, customer and time to complete, deduplicated by the order id', () => {
    expect(outcomeOfOrder(order())).toEqual({
      runId: '0b7f8c1e-0000-4000-8000-000000000001',
      providerCode: 'moonpay',
      country: 'GB',
      paymentMethod: 'card',
      kind: 'complete',
      finishedAtMs: Date.parse('2026-11-01T10:05:00.000Z'),
      completeMs: 300_000,
      integratorId: 'acme',
      externalUserId: 'user-1',
    });
  });

  test.each(ORDER_STATUSES)('status %s: settled ones are outcomes, open ones are not', (status) => {
    const outcome = outcomeOfOrder(order({ status }));
    if (status === 'complete') expect(outcome?.kind).toBe('complete');
    else if (['failed', 'expired', 'refunded'].includes(status)) {
      expect(outcome?.kind).toBe('not_complete');
      expect(outcome?.completeMs).toBeUndefined();
    } else expect(outcome).toBeUndefined();
  });

  test('a market that is not well formed is left out, the outcome kept at the provider level', () => {
    const outcome = outcomeOfOrder(order({ country_code: 'gb', payment_method: 'Card Payment' }));
    expect(outcome).toMatchObject({ providerCode: 'moonpay', kind: 'complete' });
    expect(outcome).not.toHaveProperty('country');
    expect(outcome).not.toHaveProperty('paymentMethod');
  });

  test('an unreadable update time, an unknown status or no provider records nothing', () => {
    expect(outcomeOfOrder(order({ updated_at: 'yesterday' }))).toBeUndefined();
    expect(outcomeOfOrder(order({ status: 'done' as never }))).toBeUndefined();
    expect(outcomeOfOrder({ ...order(), providerCode: '' })).toBeUndefined();
  });

  test('an order without an external user id still counts for its integrator', () => {
    const outcome = outcomeOfOrder(order({ external_user_id: '' }));
    expect(outcome).toMatchObject({ integratorId: 'acme' });
    expect(outcome).not.toHaveProperty('externalUserId');
    expect(outcomeOfOrder({ ...order(), integratorId: '' })).not.toHaveProperty('integratorId');
  });

  test('an update before the creation gives no time to complete', () => {
    expect(outcomeOfOrder(order({ updated_at: '2026-11-01T09:00:00.000Z' }))?.completeMs).toBeUndefined();
  });
});

describe('refusedOutcome', () => {
  const market = { providerCode: 'banxa', country: 'DE', paymentMethod: 'sepa' };
  test.each(['provider_rejected', 'provider_unavailable'])('%s is the provider refusing', (type) => {
    expect(refusedOutcome('refused-run-1', market, type, 5)).toEqual({
      runId: 'refused-run-1',
      providerCode: 'banxa',
      country: 'DE',
      paymentMethod: 'sepa',
      kind: 'refused',
      finishedAtMs: 5,
    });
  });
  test('counts for the integrator whose creation it was, when known', () => {
    expect(refusedOutcome('refused-run-1', market, 'provider_rejected', 5, 'acme')).toMatchObject({ integratorId: 'acme' });
    expect(refusedOutcome('refused-run-1', market, 'provider_rejected', 5, '')).not.toHaveProperty('integratorId');
  });
  test.each(['invalid_wallet_address', 'idempotency_conflict', 'anything'])('%s is not the provider', (type) => {
    expect(refusedOutcome('refused-run-1', market, type, 5)).toBeUndefined();
  });
});

describe('marketOf', () => {
  test('a well-formed start memo', () => {
    expect(marketOf({ market: { providerCode: 'ramp', country: 'US', paymentMethod: 'apple_pay' } })).toEqual({
      providerCode: 'ramp',
      country: 'US',
      paymentMethod: 'apple_pay',
    });
  });
  test.each([
    undefined,
    {},
    { market: null },
    { market: 'ramp' },
    { market: { providerCode: 'ramp', country: 'usa', paymentMethod: 'card' } },
    { market: { providerCode: 'ramp', country: 'US', paymentMethod: "card'; drop" } },
    { market: { providerCode: 1, country: 'US', paymentMethod: 'card' } },
  ])('%p is none', (memo) => {
    expect(marketOf(memo as Record<string, unknown> | undefined)).toBeUndefined();
  });
});
