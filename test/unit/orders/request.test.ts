import { createHash } from 'node:crypto';
import { validate as uuidValidate, version as uuidVersion } from 'uuid';
import { currencyDictionary } from '../../../src/domain/currencies';
import { acceptedOrderRequest, CreateOrderBodySchema, orderIdFor } from '../../../src/orders/request';
import { FULL_ORDER_BODY } from '../../helpers/order-bodies';

/** RFC 9562 UUIDv5, written out with node:crypto so the test does not trust the uuid package. */
function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const FULL_BODY = FULL_ORDER_BODY;

const MINIMAL_BODY = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100',
  wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  payment_method: 'card',
  country_code: 'DE',
  external_user_id: 'u',
  external_order_id: 'o',
};

describe('orderIdFor', () => {
  const id = orderIdFor('acme', 'order-1');

  test('is a version-5 UUID in canonical lowercase form', () => {
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidValidate(id)).toBe(true);
    expect(uuidVersion(id)).toBe(5);
  });

  test('is deterministic', () => {
    expect(orderIdFor('acme', 'order-1')).toBe(id);
    expect(orderIdFor('acme', 'order-1')).toBe(orderIdFor('acme', 'order-1'));
  });

  test('is UUIDv5 over "<integrator>\\0<external_order_id>" in the broker namespace (computed independently)', () => {
    expect(id).toBe(uuidV5('6f1f2a7e-3c1e-5b7a-9d2a-8f0c4b1e2d3a', 'acme\u0000order-1'));
    expect(orderIdFor('globex', 'x/y z')).toBe(uuidV5('6f1f2a7e-3c1e-5b7a-9d2a-8f0c4b1e2d3a', 'globex\u0000x/y z'));
  });

  test('is pinned: the same input gives this id in every release', () => {
    // Handed to providers as the partner order reference and used for the workflow id: must never change.
    expect(id).toBe('800e0a38-1730-5165-8983-587e663613e5');
  });

  test('differs by integrator', () => {
    expect(orderIdFor('globex', 'order-1')).not.toBe(id);
  });

  test('differs by external_order_id', () => {
    expect(orderIdFor('acme', 'order-2')).not.toBe(id);
    expect(orderIdFor('acme', 'Order-1')).not.toBe(id);
  });

  test('the two parts cannot be shifted into each other', () => {
    expect(orderIdFor('ab', 'c')).not.toBe(orderIdFor('a', 'bc'));
    expect(orderIdFor('acme-', 'x')).not.toBe(orderIdFor('acme', '-x'));
  });

  test('many inputs give many distinct ids', () => {
    const ids = new Set<string>();
    for (const integrator of ['acme', 'globex', 'initech']) {
      for (let n = 0; n < 100; n += 1) ids.add(orderIdFor(integrator, `order-${n}`));
    }
    expect(ids.size).toBe(300);
  });
});

describe('CreateOrderBodySchema', () => {
  test('accepts a full valid body, unchanged', () => {
    const parsed = CreateOrderBodySchema.safeParse(FULL_BODY);
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(FULL_BODY);
  });

  test('accepts a minimal body', () => {
    expect(CreateOrderBodySchema.safeParse(MINIMAL_BODY).success).toBe(true);
  });

  test('accepts an IPv6 address and currency fields of any type (checked elsewhere)', () => {
    expect(CreateOrderBodySchema.safeParse({ ...MINIMAL_BODY, ip: '2001:db8::1', from_currency: 'USD', to_currency: '13' }).success).toBe(
      true,
    );
  });

  test('trims identifiers and the wallet address', () => {
    const parsed = CreateOrderBodySchema.parse({ ...MINIMAL_BODY, external_order_id: ' o-1 ', wallet_address: ' addr ' });
    expect(parsed.external_order_id).toBe('o-1');
    expect(parsed.wallet_address).toBe('addr');
  });

  test('refuses unknown fields, naming them', () => {
    const parsed = CreateOrderBodySchema.safeParse({ ...FULL_BODY, amount: '100', to_amount: '1' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toHaveLength(1);
    expect(parsed.error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(JSON.stringify(parsed.error?.issues[0])).toContain('to_amount');
  });

  test.each(['provider_code', 'from_amount', 'wallet_address', 'payment_method', 'country_code', 'external_user_id', 'external_order_id'])(
    'refuses a body without %s',
    (field) => {
      const body: Record<string, unknown> = { ...MINIMAL_BODY };
      delete body[field];
      const parsed = CreateOrderBodySchema.safeParse(body);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual([field]);
    },
  );

  test.each(['us', 'USA', 'U', '', '12', 'U1', ' US'])('refuses country_code %p', (country_code) => {
    const parsed = CreateOrderBodySchema.safeParse({ ...MINIMAL_BODY, country_code });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['country_code']);
  });

  test.each<unknown>(['', '-1', '1e5', '01', '1.', '.5', ' 100', '1,5', '1234567890123456789', 100, null])(
    'refuses from_amount %p',
    (from_amount) => {
      const parsed = CreateOrderBodySchema.safeParse({ ...MINIMAL_BODY, from_amount });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['from_amount']);
    },
  );

  test.each<[string, unknown]>([
    ['provider_code', 'Sandbox'],
    ['provider_code', 's'],
    ['payment_method', 'Card'],
    ['payment_method', 'credit-card'],
    ['wallet_address', '   '],
    ['wallet_address', 'x'.repeat(257)],
    ['external_user_id', ''],
    ['external_user_id', 'has space'],
    ['external_order_id', 'x'.repeat(129)],
    ['external_order_id', 'ordér'],
    ['state_code', 'ca'],
    ['state_code', 'CALI'],
    ['ip', '999.1.1.1'],
    ['ip', 'localhost'],
    ['user_agent', 'x'.repeat(513)],
    ['extras', 'not an object'],
    ['extras', ['a']],
  ])('refuses %s = %p', (field, value) => {
    const parsed = CreateOrderBodySchema.safeParse({ ...MINIMAL_BODY, [field]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path[0])).toContain(field);
  });

  test.each<unknown>([null, [], 'body', 42])('refuses a non-object body %p', (body) => {
    expect(CreateOrderBodySchema.safeParse(body).success).toBe(false);
  });
});

describe('acceptedOrderRequest', () => {
  const usd = currencyDictionary.get(1)!;
  const btc = currencyDictionary.get(13)!;
  const body = CreateOrderBodySchema.parse(MINIMAL_BODY);

  test('names the order by its integrator and external_order_id', () => {
    const request = acceptedOrderRequest('acme', { body, fiat: usd, crypto: btc, state: undefined });
    expect(request.integratorId).toBe('acme');
    expect(request.orderId).toBe(orderIdFor('acme', 'o'));
  });

  test.each(['100', '100.0', '100.00'])('writes from_amount %p at the fiat currency precision', (from_amount) => {
    const request = acceptedOrderRequest('acme', { body: { ...body, from_amount }, fiat: usd, crypto: btc, state: undefined });
    expect(usd.precision).toBe(2);
    expect(request.fromAmount).toBe('100.00');
    expect(request.body.from_amount).toBe(from_amount);
  });

  test('keeps the checked currencies and state as given', () => {
    const request = acceptedOrderRequest('acme', { body, fiat: usd, crypto: btc, state: 'CA' });
    expect(request).toMatchObject({ body, fiat: usd, crypto: btc, state: 'CA' });
  });
});
