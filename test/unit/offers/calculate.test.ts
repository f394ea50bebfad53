import BigNumber from 'bignumber.js';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { decimal } from '../../../src/domain/money';
import { toOffer, type Offer } from '../../../src/offers/calculate';
import type { ProviderQuote } from '../../../src/providers/types';
import { FIXTURE_BTC, FIXTURE_USD } from '../../helpers/fixtures';

const USD = FIXTURE_USD;
const JPY: FiatCurrency = { ...USD, id: 7, ticker: 'JPY', precision: 0, name: 'Japanese Yen' };
const BTC = FIXTURE_BTC;
const ETH: CryptoCurrency = { ...BTC, id: 14, ticker: 'ETH', network: 'ethereum', precision: 18, name: 'Ether' };

const EXPIRES = new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 678));

function quote(overrides: Partial<ProviderQuote> = {}): ProviderQuote {
  return {
    fiatAmount: '100',
    cryptoAmount: '0.000979925109214',
    processingFee: '4.2901',
    networkFee: '1.5',
    paymentMethod: 'card',
    ...overrides,
  };
}

function significantDigits(value: string): number {
  return new BigNumber(value).precision(false);
}

const OFFER_KEYS = [
  'amount_expected_to',
  'amount_from',
  'expires_at',
  'fee',
  'inverted_rate',
  'payment_methods',
  'rate',
  'total_fee_amount',
].sort();

describe('toOffer: USD -> BTC (precision 2 -> 8)', () => {
  const offer = toOffer(quote(), USD, BTC, '100', EXPIRES);

  test('every field, exactly', () => {
    expect(offer).toEqual<Offer>({
      // rate = 0.00097992 / (100.00 - 5.80), 12 significant digits, rounded down
      rate: '0.0000104025477707',
      // inverted = (100.00 - 5.80) / 0.00097992, 12 significant digits, rounded up
      inverted_rate: '96130.2963508',
      // the total fee: 4.2901 + 1.5 = 5.7901, rounded up at 2 decimals
      fee: '5.80',
      amount_from: '100.00',
      // 0.000979925109214 rounded down at 8 decimals
      amount_expected_to: '0.00097992',
      payment_methods: [{ payment_method_code: 'card', fee: '5.80' }],
      expires_at: '2030-01-02T03:04:05.678Z',
      total_fee_amount: '5.80',
    });
  });

  test('has exactly the documented keys', () => {
    expect(Object.keys(offer).sort()).toEqual(OFFER_KEYS);
  });

  test('all values are strings (payment method fees too)', () => {
    for (const [key, value] of Object.entries(offer)) {
      if (key === 'payment_methods') continue;
      expect(typeof value).toBe('string');
    }
    for (const method of offer.payment_methods) {
      expect(typeof method.payment_method_code).toBe('string');
      expect(typeof method.fee).toBe('string');
    }
  });

  test('rates follow the documented formulas and keep 12 significant digits', () => {
    const net = new BigNumber(offer.amount_from).minus(offer.total_fee_amount);
    const to = new BigNumber(offer.amount_expected_to);
    expect(significantDigits(offer.rate)).toBe(12);
    expect(significantDigits(offer.inverted_rate)).toBe(12);
    expect(offer.rate).toBe(to.div(net).precision(12, BigNumber.ROUND_DOWN).toFixed());
    expect(offer.inverted_rate).toBe(net.div(to).precision(12, BigNumber.ROUND_UP).toFixed());
    // rate * inverted_rate is 1 within the 12-digit truncation
    expect(new BigNumber(offer.rate).times(offer.inverted_rate).minus(1).abs().lt('1e-10')).toBe(true);
  });

  test('expires_at is ISO 8601 UTC and round-trips', () => {
    expect(offer.expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(offer.expires_at)).toBe(EXPIRES.getTime());
  });
});

describe('toOffer: JPY -> ETH (precision 0 -> 18)', () => {
  const offer = toOffer(
    quote({ fiatAmount: '15000', processingFee: '598.5', networkFee: '226.2', cryptoAmount: '0.029066736292238413579' }),
    JPY,
    ETH,
    '15000',
    EXPIRES,
  );

  test('every field, exactly', () => {
    expect(offer).toEqual<Offer>({
      rate: '0.00000205056340685',
      inverted_rate: '487670.850194',
      // 598.5 + 226.2 = 824.7, rounded up to whole yen
      fee: '825',
      amount_from: '15000',
      amount_expected_to: '0.029066736292238413',
      payment_methods: [{ payment_method_code: 'card', fee: '825' }],
      expires_at: '2030-01-02T03:04:05.678Z',
      total_fee_amount: '825',
    });
  });

  test('yen amounts have no decimal point; the 18-decimal amount keeps all 18 digits', () => {
    expect(offer.fee).not.toContain('.');
    expect(offer.total_fee_amount).not.toContain('.');
    expect(offer.amount_from).not.toContain('.');
    expect(offer.amount_expected_to.split('.')[1]).toHaveLength(18);
  });
});

describe('toOffer: rounding rules', () => {
  test.each<[string, string, string]>([
    // processingFee, networkFee, fee = total_fee_amount (USD, precision 2)
    ['4.29', '1.50', '5.79'],
    ['4.291', '1.5', '5.80'],
    ['4.2999999999', '0', '4.30'],
    ['0.001', '0.001', '0.01'],
    // the total is the sum rounded up, not the sum of rounded parts (1.01 + 1.01)
    ['1.001', '1.001', '2.01'],
    ['0', '0', '0.00'],
    ['0', '2.345', '2.35'],
  ])('processing %s + network %s -> fee and total %s', (processingFee, networkFee, total) => {
    const offer = toOffer(quote({ processingFee, networkFee }), USD, BTC, '100', EXPIRES);
    expect(offer.fee).toBe(total);
    expect(offer.total_fee_amount).toBe(total);
    expect(offer.payment_methods).toEqual([{ payment_method_code: 'card', fee: total }]);
  });

  test('a provider that counts the network cost in its processing fee gets the same fee as one that does not', () => {
    const split = toOffer(quote({ processingFee: '3.25', networkFee: '1.50' }), USD, BTC, '100', EXPIRES);
    const inOne = toOffer(quote({ processingFee: '4.75', networkFee: '0' }), USD, BTC, '100', EXPIRES);
    expect(split.fee).toBe('4.75');
    expect(inOne.fee).toBe(split.fee);
    expect(inOne.rate).toBe(split.rate);
  });

  test.each<[string, string]>([
    ['0.123456789', '0.12345678'],
    ['0.999999999999', '0.99999999'],
    ['1', '1.00000000'],
    ['0.00000001', '0.00000001'],
    ['0.000000019', '0.00000001'],
  ])('crypto amount %s is rounded down to %s', (cryptoAmount, expected) => {
    expect(toOffer(quote({ cryptoAmount }), USD, BTC, '100', EXPIRES).amount_expected_to).toBe(expected);
  });

  test('JPY fees are rounded up to whole yen', () => {
    const offer = toOffer(quote({ processingFee: '100.01', networkFee: '0.01' }), JPY, BTC, '10000', EXPIRES);
    expect(offer.fee).toBe('101');
    expect(offer.total_fee_amount).toBe('101');
    expect(offer.amount_from).toBe('10000');
  });

  test('amount_from is printed at the fiat precision', () => {
    expect(toOffer(quote(), USD, BTC, '100.5', EXPIRES).amount_from).toBe('100.50');
    expect(toOffer(quote(), USD, BTC, '100.00', EXPIRES).amount_from).toBe('100.00');
  });

  test('the payment method code comes from the quote', () => {
    const offer = toOffer(quote({ paymentMethod: 'sepa' }), USD, BTC, '100', EXPIRES);
    expect(offer.payment_methods).toEqual([{ payment_method_code: 'sepa', fee: '5.80' }]);
  });

  test('an exact rate has no trailing zeros and no exponent', () => {
    const offer = toOffer(quote({ processingFee: '0', networkFee: '0', cryptoAmount: '0.5' }), USD, BTC, '1000', EXPIRES);
    expect(offer.rate).toBe('0.0005');
    expect(offer.inverted_rate).toBe('2000');
  });

  test('rates use amount_from minus the total fee, not the processing fee alone', () => {
    const offer = toOffer(quote({ processingFee: '10', networkFee: '40', cryptoAmount: '1' }), USD, BTC, '150', EXPIRES);
    expect(offer.rate).toBe('0.01');
    expect(offer.inverted_rate).toBe('100');
  });

  test('a zero crypto amount gives zero rates instead of dividing by zero', () => {
    const offer = toOffer(quote({ cryptoAmount: '0' }), USD, BTC, '100', EXPIRES);
    expect(offer.amount_expected_to).toBe('0.00000000');
    expect(offer.rate).toBe('0');
    expect(offer.inverted_rate).toBe('0');
  });

  test('a crypto amount that rounds down to zero is treated the same way', () => {
    const offer = toOffer(quote({ cryptoAmount: '0.000000009' }), USD, BTC, '100', EXPIRES);
    expect(offer.amount_expected_to).toBe('0.00000000');
    expect(offer.rate).toBe('0');
    expect(offer.inverted_rate).toBe('0');
  });
});

describe('toOffer: plain amounts in exact integers, as decimals', () => {
  /** Quotes written plainly, whose offer is computed in bigint, against the same with the amount as a Decimal (bignumber.js throughout). */
  const cases: [string, Partial<ProviderQuote>][] = [];
  const amounts = ['100', '100.5', '0.01', '12345678.99', '5.80', '5.79', '7'];
  const cryptos = ['0.000979925109214', '0', '0.000000009', '1', '123456.123456789012345678', '0.00000001'];
  const fees: [string, string][] = [
    ['4.2901', '1.5'],
    ['0', '0'],
    ['100.01', '0.01'],
    ['5.795', '0.005'],
    ['0.000001', '0'],
  ];
  for (const amount of amounts)
    for (const cryptoAmount of cryptos)
      for (const [processingFee, networkFee] of fees) cases.push([amount, { cryptoAmount, processingFee, networkFee }]);

  test.each([
    [USD, BTC],
    [JPY, ETH],
  ])('%# every field is the same', (fiat, crypto) => {
    for (const [amount, overrides] of cases) {
      const q = quote(overrides);
      expect(toOffer(q, fiat, crypto, amount, EXPIRES)).toEqual(toOffer(q, fiat, crypto, decimal(amount), EXPIRES));
    }
  });

  test('an amount not written plainly takes the decimal path', () => {
    const offer = toOffer(quote({ cryptoAmount: '1e-3' }), USD, BTC, '100', EXPIRES);
    expect(offer.amount_expected_to).toBe('0.00100000');
  });
});
