import { createHash } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { Order } from '../../../src/domain/order';
import { OrderRejectedError } from '../../../src/orders/errors';
import { acceptedRequestHash, repeatedOrder, requestHash } from '../../../src/orders/idempotency';
import { acceptedOrderRequest, CreateOrderBodySchema } from '../../../src/orders/request';
import type { OrderMemo } from '../../../src/temporal/order-contract';
import { FULL_ORDER_BODY } from '../../helpers/order-bodies';

const FULL_BODY = FULL_ORDER_BODY;

describe('requestHash', () => {
  const body = { a: 1, b: 'two', c: { x: [1, 2, { y: true }], z: null } };
  const hash = requestHash(body);

  test('is a hex SHA-256 of the canonical JSON (sorted keys)', () => {
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const canonical = '{"a":1,"b":"two","c":{"x":[1,2,{"y":true}],"z":null}}';
    expect(hash).toBe(createHash('sha256').update(canonical).digest('hex'));
  });

  test('ignores key order, at every depth', () => {
    expect(requestHash({ c: { z: null, x: [1, 2, { y: true }] }, b: 'two', a: 1 })).toBe(hash);
  });

  test('ignores undefined values, at every depth', () => {
    expect(requestHash({ ...body, d: undefined })).toBe(hash);
    expect(requestHash({ ...body, c: { ...body.c, w: undefined } })).toBe(hash);
  });

  test.each<[string, Record<string, unknown>]>([
    ['a changed number', { ...body, a: 2 }],
    ['a number turned string', { ...body, a: '1' }],
    ['a changed string', { ...body, b: 'Two' }],
    ['an added key', { ...body, d: 0 }],
    ['an added null', { ...body, d: null }],
    ['a removed key', { a: 1, b: 'two' }],
    ['a nested change', { ...body, c: { ...body.c, z: 0 } }],
    ['array order', { ...body, c: { ...body.c, x: [2, 1, { y: true }] } }],
    ['a deep array element', { ...body, c: { ...body.c, x: [1, 2, { y: false }] } }],
    ['a renamed key', { a: 1, b: 'two', d: body.c }],
  ])('changes with %s', (_label, changed) => {
    expect(requestHash(changed)).not.toBe(hash);
  });

  test('changes with every value of an order body', () => {
    const base = requestHash(FULL_BODY);
    for (const key of Object.keys(FULL_BODY)) {
      const changed = { ...FULL_BODY, [key]: `${JSON.stringify((FULL_BODY as Record<string, unknown>)[key])}-changed` };
      expect(requestHash(changed)).not.toBe(base);
    }
  });

  test('"100" and "100.00" are different bodies (the caller normalises amounts first)', () => {
    expect(requestHash({ from_amount: '100' })).not.toBe(requestHash({ from_amount: '100.00' }));
  });
});

describe('acceptedRequestHash', () => {
  const usd = currencyDictionary.get(1)!;
  const eur = currencyDictionary.get(2)!;
  const btc = currencyDictionary.get(13)!;
  const accepted = (body: Record<string, unknown>, fiat = usd) =>
    acceptedOrderRequest('acme', { body: CreateOrderBodySchema.parse(body), fiat, crypto: btc, state: 'CA' });

  test('is the digest of the body with currency IDs and the amount at the currency precision', () => {
    expect(acceptedRequestHash(accepted({ ...FULL_BODY, from_amount: '100' }))).toBe(requestHash({ ...FULL_BODY, from_amount: '100.00' }));
  });

  test('"100" and "100.00" are one request', () => {
    expect(acceptedRequestHash(accepted({ ...FULL_BODY, from_amount: '100' }))).toBe(acceptedRequestHash(accepted(FULL_BODY)));
  });

  test('takes the currencies as checked, not as the body wrote them', () => {
    expect(acceptedRequestHash(accepted(FULL_BODY, eur))).not.toBe(acceptedRequestHash(accepted(FULL_BODY)));
    expect(acceptedRequestHash(accepted({ ...FULL_BODY, from_currency: undefined, to_currency: undefined }))).toBe(
      acceptedRequestHash(accepted(FULL_BODY)),
    );
  });

  test('changes with any other field of the body', () => {
    expect(acceptedRequestHash(accepted({ ...FULL_BODY, wallet_address: 'bc1qother' }))).not.toBe(acceptedRequestHash(accepted(FULL_BODY)));
    expect(acceptedRequestHash(accepted({ ...FULL_BODY, extras: {} }))).not.toBe(acceptedRequestHash(accepted(FULL_BODY)));
  });
});

describe('repeatedOrder', () => {
  const order: Order = {
    id: '800e0a38-1730-5165-8983-587e663613e5',
    status: 'created',
    redirect_url: 'https://checkout.example/800e0a38',
    from_currency: 1,
    from_amount: '100.00',
    to_currency: 13,
    to_amount: '0.00097992',
    wallet_address: FULL_BODY.wallet_address,
    payment_method: 'card',
    country_code: 'US',
    external_user_id: 'user-42',
    external_order_id: 'order-2030-0001',
    created_at: '2030-01-01T12:00:00.000Z',
    updated_at: '2030-01-01T12:00:00.000Z',
    extras: {},
  };
  const memo = (overrides: Partial<OrderMemo> = {}): OrderMemo => ({
    order,
    integratorId: 'acme',
    providerCode: 'sandbox',
    requestHash: 'hash-1',
    sequence: 1,
    ...overrides,
  });

  test('is undefined when no order exists: the request creates it', () => {
    expect(repeatedOrder(undefined, 'acme', 'hash-1')).toBeUndefined();
  });

  test("is undefined for another integrator's order", () => {
    expect(repeatedOrder(memo({ integratorId: 'globex' }), 'acme', 'hash-2')).toBeUndefined();
  });

  test('is the existing order when the request is the same', () => {
    expect(repeatedOrder(memo(), 'acme', 'hash-1')).toBe(order);
  });

  test('is the existing order whatever became of it since', () => {
    const completed: Order = { ...order, status: 'complete', updated_at: '2030-01-01T12:30:00.000Z' };
    expect(repeatedOrder(memo({ order: completed, sequence: 4 }), 'acme', 'hash-1')).toBe(completed);
  });

  test('refuses a different request under the same order id as idempotency_conflict', () => {
    let thrown: unknown;
    try {
      repeatedOrder(memo(), 'acme', 'hash-2');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(OrderRejectedError);
    expect(thrown).toMatchObject({
      reason: 'idempotency_conflict',
      message: 'This external_order_id was already used with a different request.',
    });
  });
});
