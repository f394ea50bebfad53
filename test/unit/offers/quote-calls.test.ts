import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { QuoteCalls } from '../../../src/offers/quote-calls';
import { ALL_QUOTE_FIELDS, quoteKeyOf } from '../../../src/providers/kit/quote-key';
import type { ProviderAdapter, ProviderQuote, QuoteRequest } from '../../../src/providers/types';

const USD = currencyDictionary.fiat(1) as FiatCurrency;
const BTC = currencyDictionary.crypto(13) as CryptoCurrency;

const request: QuoteRequest = {
  fiat: USD,
  crypto: BTC,
  fiatAmount: '100',
  paymentMethod: 'card',
  country: 'GB',
  externalUserId: 'u1',
};
const quote: ProviderQuote = { fiatAmount: '100', cryptoAmount: '0.001', processingFee: '1', networkFee: '1', paymentMethod: 'card' };

function adapter(getQuote: ProviderAdapter['getQuote'], quoteKey?: ProviderAdapter['quoteKey']): ProviderAdapter {
  return {
    info: { code: 'p', name: 'p', description: 'p', icon_url: 'https://example.org/i.svg' },
    getCatalogue: () => Promise.reject(new Error('unused')),
    getQuote,
    ...(quoteKey ? { quoteKey } : {}),
    createOrder: () => Promise.reject(new Error('unused')),
    getOrder: () => Promise.reject(new Error('unused')),
    parseWebhook: () => Promise.reject(new Error('unused')),
  };
}

const calls = (concurrency = 64) => new QuoteCalls({ concurrency, deadline: { maxMs: 3000, floorMs: 50, multiplier: 2, minSamples: 5 } });
const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('quote keys', () => {
  test('by default every field counts: two users are two calls', () => {
    expect(quoteKeyOf(request, ALL_QUOTE_FIELDS)).not.toBe(quoteKeyOf({ ...request, externalUserId: 'u2' }, ALL_QUOTE_FIELDS));
    expect(quoteKeyOf(request, ALL_QUOTE_FIELDS)).not.toBe(quoteKeyOf({ ...request, ip: '203.0.113.7' }, ALL_QUOTE_FIELDS));
    expect(quoteKeyOf(request, ALL_QUOTE_FIELDS)).not.toBe(quoteKeyOf({ ...request, state: 'CA' }, ALL_QUOTE_FIELDS));
  });

  test('with the fields a provider reads, other fields do not count', () => {
    const fields = ['fiat', 'crypto', 'fiatAmount', 'paymentMethod'] as const;
    expect(quoteKeyOf(request, fields)).toBe(quoteKeyOf({ ...request, externalUserId: 'u2', ip: '203.0.113.7', country: 'FR' }, fields));
    expect(quoteKeyOf(request, fields)).not.toBe(quoteKeyOf({ ...request, fiatAmount: '100.00' }, fields));
    expect(quoteKeyOf(request, fields)).not.toBe(quoteKeyOf({ ...request, paymentMethod: 'sepa' }, fields));
    // Values cannot run into each other.
    expect(quoteKeyOf({ ...request, fiatAmount: '1', paymentMethod: '0card' }, fields)).not.toBe(
      quoteKeyOf({ ...request, fiatAmount: '10', paymentMethod: 'card' }, fields),
    );
  });
});

describe('QuoteCalls', () => {
  test("requests alike in what reaches the provider share one call; the adapter's key decides", async () => {
    let made = 0;
    const reader = adapter(
      () => (made++, later(20, quote)),
      (r) => quoteKeyOf(r, ['fiat', 'crypto', 'fiatAmount', 'paymentMethod']),
    );
    const quotes = calls();
    const signal = new AbortController().signal;
    const answers = await Promise.all(['u1', 'u2', 'u3'].map((user) => quotes.quote(reader, { ...request, externalUserId: user }, signal)));
    expect(answers).toEqual([quote, quote, quote]);
    expect(made).toBe(1);
  });

  test('without a key of its adapter, the user and the IP keep calls apart', async () => {
    let made = 0;
    const quotes = calls();
    const signal = new AbortController().signal;
    const plain = adapter(() => (made++, later(10, quote)));
    await Promise.all([
      quotes.quote(plain, request, signal),
      quotes.quote(plain, request, signal),
      quotes.quote(plain, { ...request, externalUserId: 'u2' }, signal),
      quotes.quote(plain, { ...request, ip: '203.0.113.7' }, signal),
    ]);
    expect(made).toBe(3);
  });

  test('calls in flight to a provider stay under the cap', async () => {
    let inFlight = 0;
    let most = 0;
    const counted = adapter(async (r) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await later(5, undefined);
      inFlight--;
      return { ...quote, fiatAmount: r.fiatAmount };
    });
    const quotes = calls(4);
    const signal = new AbortController().signal;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => quotes.quote(counted, { ...request, fiatAmount: `${100 + i}` }, signal)),
    );
    expect(answers.map((a) => a.fiatAmount)).toEqual(Array.from({ length: 30 }, (_, i) => `${100 + i}`));
    expect(most).toBe(4);
  });

  test("answered calls' latencies make the provider's deadline; forgetting them brings back the maximum", async () => {
    const quotes = calls();
    const fast = adapter(() => later(30, quote));
    expect(quotes.deadlineMs('p')).toBe(3000);
    const signal = new AbortController().signal;
    for (let i = 0; i < 5; i++) await quotes.quote(fast, { ...request, fiatAmount: `${i}` }, signal);
    const ms = quotes.deadlineMs('p');
    expect(ms).toBeGreaterThanOrEqual(60);
    expect(ms).toBeLessThan(200);
    quotes.forgetLatency('p');
    expect(quotes.deadlineMs('p')).toBe(3000);
  });

  test('a failed call does not count as a latency', async () => {
    const quotes = calls();
    const failing = adapter(() => Promise.reject(new Error('HTTP 503')));
    const signal = new AbortController().signal;
    for (let i = 0; i < 10; i++) await expect(quotes.quote(failing, request, signal)).rejects.toThrow('HTTP 503');
    expect(quotes.deadlineMs('p')).toBe(3000);
  });
});
