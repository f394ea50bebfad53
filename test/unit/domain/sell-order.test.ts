import { OrderSchema } from '../../../src/domain/order';
import { DepositSchema, SellDiscrepancySchema, SellOrderSchema, SellOrderStatusSchema } from '../../../src/domain/sell-order';
import { SELL_ORDER_STATUSES } from '../../../src/domain/sell-order-status';

const deposit = {
  address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  memo: '12345',
  network: 'ripple',
  amount: '250.000000',
  expires_at: '2026-12-01T10:30:00.000Z',
};

const sellOrder = {
  id: '6f1c3c1e-2b7a-5d1e-9c4b-0a8e2f7d3b11',
  kind: 'off_ramp',
  status: 'waiting_for_deposit',
  redirect_url: 'https://provider.example/sell/abc',
  from_currency: 20,
  from_amount: '250.000000',
  to_currency: 2,
  to_amount: '120.50',
  refund_wallet_address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY',
  payout_method: 'sepa_bank_transfer',
  country_code: 'DE',
  external_user_id: 'user-1',
  external_order_id: 'sell-1',
  created_at: '2026-12-01T10:00:00.000Z',
  updated_at: '2026-12-01T10:01:00.000Z',
  extras: { provider_order_id: 'p-1' },
  deposit,
  transaction_hash: 'ABCDEF0123456789',
  discrepancies: [{ field: 'to_amount', ordered: '120.50', reported: '119.00' }],
};

const buyOrder = {
  id: '6f1c3c1e-2b7a-5d1e-9c4b-0a8e2f7d3b12',
  status: 'pending',
  redirect_url: 'https://provider.example/buy/abc',
  from_currency: 2,
  from_amount: '100.00',
  to_currency: 20,
  to_amount: '200.000000',
  wallet_address: 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh',
  payment_method: 'card',
  country_code: 'DE',
  external_user_id: 'user-1',
  external_order_id: 'buy-1',
  created_at: '2026-12-01T10:00:00.000Z',
  updated_at: '2026-12-01T10:01:00.000Z',
  extras: {},
};

const without = <T extends object>(value: T, key: keyof T): Partial<T> => {
  const copy = { ...value };
  delete copy[key];
  return copy;
};

describe('SellOrderSchema', () => {
  test('parses a sell order with its deposit, transaction hash and discrepancies', () => {
    expect(SellOrderSchema.parse(sellOrder)).toEqual(sellOrder);
  });

  test('parses a sell order before the provider has named a deposit', () => {
    const created = { ...without(sellOrder, 'deposit'), status: 'created' };
    delete created.transaction_hash;
    delete created.discrepancies;
    expect(SellOrderSchema.parse(created)).toEqual(created);
  });

  test('parses a failed order with its reason', () => {
    expect(SellOrderSchema.parse({ ...sellOrder, status: 'failed', failure_reason: 'compliance' }).failure_reason).toBe('compliance');
  });

  test.each([...SELL_ORDER_STATUSES])('takes status %s', (status) => {
    expect(SellOrderSchema.safeParse({ ...sellOrder, status }).success).toBe(true);
  });

  test.each(['pending', 'hold', 'waiting', 'Complete', ''])('refuses status %p (a buy status or no status)', (status) => {
    expect(SellOrderSchema.safeParse({ ...sellOrder, status }).success).toBe(false);
    expect(SellOrderStatusSchema.safeParse(status).success).toBe(false);
  });

  describe('kind', () => {
    test.each(['on_ramp', 'OFF_RAMP', 'off-ramp', 'offramp', '', null, 1])('must be off_ramp, not %p', (kind) => {
      expect(SellOrderSchema.safeParse({ ...sellOrder, kind }).success).toBe(false);
    });

    test('is required', () => {
      expect(SellOrderSchema.safeParse(without(sellOrder, 'kind')).success).toBe(false);
    });

    test('a buy order is no sell order, and a sell order no buy order', () => {
      expect(SellOrderSchema.safeParse(buyOrder).success).toBe(false);
      expect(SellOrderSchema.safeParse({ ...buyOrder, kind: 'off_ramp' }).success).toBe(false);
      expect(OrderSchema.safeParse(buyOrder).success).toBe(true);
      expect(OrderSchema.safeParse(sellOrder).success).toBe(false);
    });
  });

  test.each([
    'id',
    'status',
    'redirect_url',
    'from_currency',
    'from_amount',
    'to_currency',
    'to_amount',
    'refund_wallet_address',
    'payout_method',
    'country_code',
    'external_user_id',
    'external_order_id',
    'created_at',
    'updated_at',
    'extras',
  ] as const)('%s is required', (key) => {
    expect(SellOrderSchema.safeParse(without(sellOrder, key)).success).toBe(false);
  });

  test.each([
    ['id', 'not-a-uuid'],
    ['redirect_url', 'not a url'],
    ['from_currency', 20.5],
    ['from_currency', '20'],
    ['to_currency', 2.5],
    ['from_amount', 250],
    ['to_amount', 120.5],
    ['country_code', 'DEU'],
    ['country_code', 'D'],
    ['created_at', '1 December 2026'],
    ['updated_at', '2026-12-01'],
    ['extras', []],
    ['transaction_hash', 1],
    ['discrepancies', [{ field: 'refund_wallet_address', ordered: 'a', reported: 'b' }]],
    ['discrepancies', [{ field: 'from_currency', ordered: '20', reported: '21' }]],
    ['discrepancies', [{ field: 'to_amount', ordered: '1' }]],
  ])('refuses %s = %p', (key, value) => {
    expect(SellOrderSchema.safeParse({ ...sellOrder, [key]: value }).success).toBe(false);
  });

  test('drops fields it does not know (a buy wallet_address never comes through)', () => {
    const parsed = SellOrderSchema.parse({ ...sellOrder, wallet_address: 'x', payment_method: 'card' });
    expect(parsed).not.toHaveProperty('wallet_address');
    expect(parsed).not.toHaveProperty('payment_method');
  });
});

describe('DepositSchema', () => {
  test('parses a deposit with every field', () => {
    expect(DepositSchema.parse(deposit)).toEqual(deposit);
  });

  test('memo and expires_at are optional', () => {
    const bare = { address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'ethereum', amount: '0.5' };
    expect(DepositSchema.parse(bare)).toEqual(bare);
  });

  test.each(['address', 'network', 'amount'] as const)('%s is required', (key) => {
    expect(DepositSchema.safeParse(without(deposit, key)).success).toBe(false);
    expect(SellOrderSchema.safeParse({ ...sellOrder, deposit: without(deposit, key) }).success).toBe(false);
  });

  test.each([
    ['address', 1],
    ['memo', 12345],
    ['network', null],
    ['amount', 250],
    ['expires_at', 'tomorrow'],
    ['expires_at', 1764585000000],
  ])('refuses %s = %p', (key, value) => {
    expect(DepositSchema.safeParse({ ...deposit, [key]: value }).success).toBe(false);
  });
});

describe('SellDiscrepancySchema', () => {
  test.each(['from_amount', 'to_amount', 'to_currency'])('takes %s: a term the order shows as the provider reports it', (field) => {
    expect(SellDiscrepancySchema.safeParse({ field, ordered: '1', reported: '2' }).success).toBe(true);
  });

  test.each(['from_currency', 'refund_wallet_address', 'deposit', 'wallet_address'])(
    'refuses %s: a refused term is never shown as a difference',
    (field) => {
      expect(SellDiscrepancySchema.safeParse({ field, ordered: '1', reported: '2' }).success).toBe(false);
    },
  );
});
