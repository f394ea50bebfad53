import { currencyDictionary } from '../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../src/domain/currency';
import { OffersService } from '../../src/offers/service';
import { MemoryOfferStore } from '../../src/offers/store';
import { ProviderRegistry } from '../../src/providers/registry';
import { ProviderRejectedError, ProviderUnavailableError, type ProviderAdapter, type ProviderQuote } from '../../src/providers/types';

const USD = currencyDictionary.fiat(1) as FiatCurrency;
const BTC = currencyDictionary.crypto(13) as CryptoCurrency;
const NOW = Date.parse('2026-11-21T12:00:00Z');

function adapter(code: string, quote: (signal?: AbortSignal) => Promise<ProviderQuote>): ProviderAdapter {
  return {
    info: { code, name: code, description: code, icon_url: 'https://example.org/i.svg' },
    getQuote: (_request, signal) => quote(signal),
    createOrder: () => Promise.reject(new Error('unused')),
    getOrder: () => Promise.reject(new Error('unused')),
    parseWebhook: () => {
      throw new Error('unused');
    },
  };
}

const goodQuote: ProviderQuote = {
  fiatAmount: '100.00',
  cryptoAmount: '0.001',
  processingFee: '3.50',
  networkFee: '1.00',
  paymentMethod: 'card',
  expiresAt: new Date(NOW + 60_000),
};

function service(adapters: ProviderAdapter[], store = new MemoryOfferStore(() => NOW), timeoutMs = 200) {
  return new OffersService({
    providers: new ProviderRegistry(adapters),
    store,
    offerTtlSeconds: 120,
    providerTimeoutMs: timeoutMs,
    now: () => NOW,
  });
}

const query = { integratorId: 'i1', externalUserId: 'u1', fiat: USD, crypto: BTC, amountFrom: '100', country: 'GB' };

test('asks providers in parallel and leaves out the slow, failing and refusing ones with a reason', async () => {
  const never = () => new Promise<ProviderQuote>(() => undefined);
  const offers = service([
    adapter('fast', () => Promise.resolve(goodQuote)),
    adapter('slow', never),
    adapter('down', () => Promise.reject(new ProviderUnavailableError('HTTP 503'))),
    adapter('limits', () => Promise.reject(new ProviderRejectedError('limits', 'too small', { minAmount: '20.00' }))),
    adapter('country', () => Promise.reject(new ProviderRejectedError('country', 'not served'))),
  ]);
  const started = Date.now();
  const result = await offers.getOffers(query);
  expect(Date.now() - started).toBeLessThan(1000);
  expect(Object.keys(result.offers)).toEqual(['fast']);
  expect(result.errors).toEqual({
    slow: { error: { code: 'timeout', message: 'no answer within 200 ms' } },
    down: { error: { code: 'unavailable', message: 'HTTP 503' } },
    limits: { error: { code: 'limits', message: 'too small', min_amount: '20.00' } },
    country: { error: { code: 'country', message: 'not served' } },
  });
});

test('the deadline aborts the provider call', async () => {
  let aborted = false;
  const offers = service([
    adapter('slow', (signal) => new Promise<ProviderQuote>(() => signal?.addEventListener('abort', () => (aborted = true)))),
  ], undefined, 50);
  await offers.getOffers(query);
  expect(aborted).toBe(true);
});

test('a quote whose fees eat the amount is a limits error, not an offer', async () => {
  const offers = service([adapter('greedy', () => Promise.resolve({ ...goodQuote, processingFee: '99.00', networkFee: '1.00' }))]);
  const result = await offers.getOffers(query);
  expect(result.offers).toEqual({});
  expect(result.errors.greedy?.error.code).toBe('limits');
});

test('expires_at is the sooner of the TTL and the provider quote expiry, and the offer is remembered', async () => {
  const store = new MemoryOfferStore(() => NOW);
  const offers = service([adapter('fast', () => Promise.resolve(goodQuote))], store);
  const result = await offers.getOffers({ ...query, paymentMethod: 'card' });
  expect(result.offers.fast?.expires_at).toBe(new Date(NOW + 60_000).toISOString());
  const remembered = await store.findLive({
    integratorId: 'i1',
    externalUserId: 'u1',
    providerCode: 'fast',
    fromCurrency: USD.id,
    toCurrency: BTC.id,
    amountFrom: '100.00',
    country: 'GB',
    paymentMethod: 'card',
  });
  expect(remembered?.amountExpectedTo).toBe('0.00100000');
});

test('provider_codes narrows the providers asked', async () => {
  const asked: string[] = [];
  const make = (code: string) => adapter(code, () => (asked.push(code), Promise.resolve(goodQuote)));
  await service([make('a'), make('b'), make('c')]).getOffers({ ...query, providerCodes: ['b', 'zzz'] });
  expect(asked).toEqual(['b']);
});
