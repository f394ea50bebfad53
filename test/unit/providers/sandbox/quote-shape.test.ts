import { SandboxQuoteSchema, sandboxQuoteShape } from '../../../../src/providers/sandbox/schemas';

const quote = {
  quote_id: 'q_1',
  fiat_amount: '100.00',
  crypto_amount: '0.00123456',
  price: '78000.12',
  processing_fee: '2.99',
  network_fee: '0',
  payment_method: 'card',
  expires_at: '2026-11-26T00:00:00.000Z',
};

const BAD_DECIMALS = [
  '1'.repeat(31),
  `1.${'1'.repeat(31)}`,
  '9'.repeat(1_000_000),
  '',
  '-1',
  '+1',
  '1.',
  '.5',
  '1e5',
  ' 1',
  '1 ',
  '1,5',
  'NaN',
  'Infinity',
  '0x10',
  '1.2.3',
  '١٢',
];
const BAD_DATETIMES = [
  '',
  '2026-11-26',
  '2026-11-26T00:00Z',
  '2026-11-26T00:00:00',
  '2026-11-26T00:00:00+01:00',
  '2026-11-26 00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-11-26T24:00:00Z',
  '2026-11-26T00:00:00.Z',
  'Thu, 26 Nov 2026 00:00:00 GMT',
];
const GOOD_DATETIMES = ['2026-11-26T00:00:00Z', '2026-11-26T23:59:59.123456Z', '2024-02-29T12:00:00.5Z'];

/** Every variant of the quote the checks must judge as the zod schema does. */
function variants(): [string, unknown][] {
  const cases: [string, unknown][] = [
    ['the quote', quote],
    ['with extra fields', { ...quote, extra: { nested: true }, price: '1' }],
    ['null', null],
    ['an array', [quote]],
    ['a string', JSON.stringify(quote)],
    ['a number', 1],
    ['undefined', undefined],
  ];
  for (const key of Object.keys(quote)) {
    const { [key]: _dropped, ...without } = quote as Record<string, unknown>;
    cases.push([`without ${key}`, without]);
    for (const value of [null, 1, 1.5, true, {}, [], ['1']]) cases.push([`${key} = ${JSON.stringify(value)}`, { ...quote, [key]: value }]);
  }
  for (const key of ['fiat_amount', 'crypto_amount', 'price', 'processing_fee', 'network_fee']) {
    for (const value of BAD_DECIMALS) cases.push([`${key} = ${JSON.stringify(value)}`, { ...quote, [key]: value }]);
  }
  for (const value of [...BAD_DATETIMES, ...GOOD_DATETIMES]) cases.push([`expires_at = ${value}`, { ...quote, expires_at: value }]);
  for (const value of ['', ' ', '\u0000']) cases.push([`quote_id = ${JSON.stringify(value)}`, { ...quote, quote_id: value }]);
  return cases;
}

describe('sandboxQuoteShape', () => {
  test.each(variants())('judges %s as SandboxQuoteSchema does', (_name, body) => {
    const zod = SandboxQuoteSchema.safeParse(body);
    const checked = sandboxQuoteShape(body);
    expect(checked !== undefined).toBe(zod.success);
    if (zod.success) for (const [key, value] of Object.entries(zod.data)) expect((checked as Record<string, unknown>)[key]).toBe(value);
  });

  test('rejects the hostile answers, accepts the well-formed ones', () => {
    expect(sandboxQuoteShape(quote)).toBe(quote);
    expect(sandboxQuoteShape({ ...quote, crypto_amount: '1e-7' })).toBeUndefined();
    expect(sandboxQuoteShape({ ...quote, expires_at: '2026-11-26T00:00:00+00:00' })).toBeUndefined();
    expect(sandboxQuoteShape({ ...quote, quote_id: 7 })).toBeUndefined();
  });
});
