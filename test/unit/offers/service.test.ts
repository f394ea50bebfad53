import { CatalogueService } from '../../../src/catalogue/service';
import { currencyDictionary } from '../../../src/domain/currencies';
import { OffersService } from '../../../src/offers/service';
import { MemoryOfferStore } from '../../../src/offers/store';
import { ProviderRegistry } from '../../../src/providers/registry';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type ProviderAdapter,
  type ProviderCatalogue,
  type ProviderQuote,
  type QuoteRequest,
} from '../../../src/providers/types';
import type { CallSignal } from '../../../src/providers/kit/call-signal';
import { BTC, CARD, fakeProvider, goodQuote, NOW, offersQuery, USD } from '../../helpers/offers';

const CATALOGUE: ProviderCatalogue = {
  fiat: [USD.id],
  crypto: [BTC.id],
  countries: [{ code: 'GB' }, { code: 'US', states: ['CA', 'FL'] }],
  paymentMethods: [
    CARD,
    { code: 'bank_transfer', name: 'Bank', icon_url: null, fee: '1%', limits: { [USD.id]: { min: '50', max: '20000' } } },
  ],
};

function adapter(
  code: string,
  quote: (signal?: CallSignal, request?: QuoteRequest) => Promise<ProviderQuote>,
  catalogue: ProviderCatalogue = { ...CATALOGUE, paymentMethods: CATALOGUE.paymentMethods.slice(0, 1) },
): ProviderAdapter {
  return fakeProvider(code, catalogue, (request, signal) => quote(signal, request));
}

function service(adapters: ProviderAdapter[], store = new MemoryOfferStore(() => NOW), timeoutMs = 200) {
  const providers = new ProviderRegistry(adapters);
  return new OffersService({
    providers,
    catalogues: new CatalogueService({ providers, currencies: currencyDictionary, ttlMs: 60_000, timeoutMs }),
    store,
    offerTtlSeconds: 120,
    providerTimeoutMs: timeoutMs,
    now: () => NOW,
  });
}

const query = offersQuery;

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
  const offers = service(
    [adapter('slow', (signal) => new Promise<ProviderQuote>(() => signal?.addEventListener('abort', () => (aborted = true))))],
    undefined,
    50,
  );
  await offers.getOffers(query);
  expect(aborted).toBe(true);
});

test("a provider's deadline signal takes as many abort listeners as it has quote calls in flight, without a leak warning", async () => {
  // Like undici, each call listens for the abort until it ends; Node warns past 10 listeners unless told otherwise.
  const methods = Array.from({ length: 12 }, (_, i) => ({ ...CATALOGUE.paymentMethods[0]!, code: `m${i}` }));
  const warnings: Error[] = [];
  const onWarning = (warning: Error) => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    const signals = new Set<CallSignal>();
    const listening = (signal?: CallSignal, request?: QuoteRequest) => {
      if (signal) signals.add(signal);
      signal?.addEventListener('abort', () => undefined);
      return Promise.resolve({ ...goodQuote, paymentMethod: request!.paymentMethod });
    };
    const result = await service([adapter('p', listening, { ...CATALOGUE, paymentMethods: methods })]).getOffers(query);
    expect(result.offers.p?.payment_methods).toHaveLength(12);
    expect(signals.size).toBe(12);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
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

describe("a provider that needs the end user's IP address", () => {
  const ipBound = (onQuote: (request?: QuoteRequest) => void = () => undefined): ProviderAdapter => ({
    ...adapter('ipbound', (_signal, request) => (onQuote(request), Promise.resolve(goodQuote))),
    requiresCustomerIp: true,
  });

  test('without `ip` it is left out with ip_required, and never asked for a quote', async () => {
    const quoted: unknown[] = [];
    const offers = service([ipBound((r) => quoted.push(r)), adapter('other', () => Promise.resolve(goodQuote))]);
    const result = await offers.getOffers(query);
    expect(Object.keys(result.offers)).toEqual(['other']);
    expect(result.errors).toEqual({
      ipbound: { error: { code: 'ip_required', message: "this provider needs the end user's IP address: send `ip`" } },
    });
    expect(quoted).toEqual([]);
  });

  test('with `ip` it is quoted with it, and its offer is remembered with the ip for the order', async () => {
    const store = new MemoryOfferStore(() => NOW);
    const quoted: (QuoteRequest | undefined)[] = [];
    const result = await service([ipBound((r) => quoted.push(r))], store).getOffers({ ...query, ip: '203.0.113.7' });
    expect(Object.keys(result.offers)).toEqual(['ipbound']);
    expect(quoted.map((r) => r?.ip)).toEqual(['203.0.113.7']);
    const remembered = await store.findLive({
      integratorId: 'i1',
      externalUserId: 'u1',
      providerCode: 'ipbound',
      fromCurrency: USD.id,
      toCurrency: BTC.id,
      amountFrom: '100',
      country: 'GB',
      paymentMethod: 'card',
    });
    expect(remembered?.ip).toBe('203.0.113.7');
  });

  test('a reason of its catalogue comes first: an ip would not help', async () => {
    const result = await service([ipBound()]).getOffers({ ...query, country: 'FR' });
    expect(result.errors.ipbound?.error.code).toBe('country');
  });

  test('ip_required is no timeout: the provider does not become slow', async () => {
    const offers = service([ipBound(), adapter('other', () => Promise.resolve(goodQuote))]);
    for (let i = 0; i < 3; i++) await offers.getOffers(query);
    const result = await offers.getOffers({ ...query, ip: '203.0.113.7' });
    expect(Object.keys(result.offers).sort()).toEqual(['ipbound', 'other']);
  });
});

test('provider_codes narrows the providers asked', async () => {
  const asked: string[] = [];
  const make = (code: string) => adapter(code, () => (asked.push(code), Promise.resolve(goodQuote)));
  await service([make('a'), make('b'), make('c')]).getOffers({ ...query, providerCodes: ['b', 'zzz'] });
  expect(asked).toEqual(['b']);
});

test('the catalogue rules providers out before any quote, each with its reason', async () => {
  const quoted: string[] = [];
  const make = (code: string, catalogue: ProviderCatalogue) =>
    adapter(code, () => (quoted.push(code), Promise.resolve(goodQuote)), catalogue);
  const offers = service([
    make('ok', CATALOGUE),
    make('no_country', { ...CATALOGUE, countries: [{ code: 'DE' }] }),
    make('no_pair', { ...CATALOGUE, crypto: [] }),
    make('no_method', { ...CATALOGUE, paymentMethods: [] }),
  ]);
  const result = await offers.getOffers(query);
  expect(Object.keys(result.offers)).toEqual(['ok']);
  expect(result.errors).toEqual({
    no_country: { error: { code: 'country', message: 'does not serve GB' } },
    no_pair: { error: { code: 'currency', message: 'does not sell this currency pair' } },
    no_method: { error: { code: 'payment_method', message: 'does not offer any payment method for this currency' } },
  });
  expect(quoted).toEqual(['ok', 'ok']);
});

test('limits and states come from the catalogue, with the limits in the reason', async () => {
  const offers = service([adapter('p', () => Promise.resolve(goodQuote), CATALOGUE)]);
  const small = await offers.getOffers({ ...query, amountFrom: '5' });
  expect(small.errors.p).toEqual({
    error: { code: 'limits', message: 'amount must be between 20.00 and 20000.00 USD', min_amount: '20.00', max_amount: '20000.00' },
  });
  const bankOnly = await offers.getOffers({ ...query, amountFrom: '10000', paymentMethod: 'card' });
  expect(bankOnly.errors.p?.error).toMatchObject({ code: 'limits', min_amount: '20.00', max_amount: '5000.00' });
  const texas = await offers.getOffers({ ...query, country: 'US', state: 'TX' });
  expect(texas.errors.p?.error.code).toBe('state');
  const california = await offers.getOffers({ ...query, country: 'US', state: 'CA' });
  expect(california.offers.p).toBeDefined();
});

test('every eligible payment method is quoted; the best amounts win and every fee is listed', async () => {
  const byMethod: Record<string, ProviderQuote> = {
    card: { ...goodQuote, paymentMethod: 'card', cryptoAmount: '0.00090', processingFee: '4.29' },
    bank_transfer: { ...goodQuote, paymentMethod: 'bank_transfer', cryptoAmount: '0.00095', processingFee: '1.00' },
  };
  const offers = service([adapter('p', (_signal, request) => Promise.resolve(byMethod[request!.paymentMethod]!), CATALOGUE)]);
  const result = await offers.getOffers({ ...query, amountFrom: '100' });
  expect(result.offers.p).toMatchObject({
    amount_expected_to: '0.00095000',
    // each fee is the method's total: processing + the 1.00 network fee
    fee: '2.00',
    payment_methods: [
      { payment_method_code: 'bank_transfer', fee: '2.00' },
      { payment_method_code: 'card', fee: '5.29' },
    ],
  });
});

test('a provider whose catalogue cannot be loaded is unavailable', async () => {
  const broken: ProviderAdapter = {
    ...adapter('p', () => Promise.resolve(goodQuote)),
    getCatalogue: () => Promise.reject(new ProviderUnavailableError('down')),
  };
  const result = await service([broken]).getOffers(query);
  expect(result.errors.p?.error.code).toBe('unavailable');
});

describe('slow providers', () => {
  async function slowSetup() {
    let clock = NOW;
    let slowAnswers = false;
    const fast = adapter('fast', () => Promise.resolve(goodQuote));
    const asked = { slow: 0 };
    /** The signal of the slow provider's latest call: aborted once that call's deadline passes. */
    const lastSlowCall: { signal?: CallSignal } = {};
    const slow = adapter('slow', (signal) => {
      asked.slow++;
      lastSlowCall.signal = signal;
      return slowAnswers ? Promise.resolve(goodQuote) : new Promise<ProviderQuote>(() => undefined);
    });
    const providers = new ProviderRegistry([fast, slow]);
    const catalogues = new CatalogueService({ providers, currencies: currencyDictionary, ttlMs: 60_000, timeoutMs: 1000 });
    // Loaded first, as the API does at start: a timeout of a request that waited for a catalogue to load is not counted.
    await catalogues.warm();
    const offers = new OffersService({
      providers,
      catalogues,
      store: new MemoryOfferStore(() => clock),
      offerTtlSeconds: 120,
      providerTimeoutMs: 150,
      slowProbeIntervalMs: 30_000,
      now: () => clock,
    });
    const timed = async () => {
      const started = Date.now();
      const result = await offers.getOffers(query);
      return { result, ms: Date.now() - started };
    };
    return { timed, asked, lastSlowCall, advance: (ms: number) => (clock += ms), recover: () => (slowAnswers = true) };
  }

  test('after two timeouts in a row a provider no longer holds the answer, until a probe finds it recovered', async () => {
    const { timed, advance, recover, asked, lastSlowCall } = await slowSetup();
    for (let i = 0; i < 2; i++) {
      const { result, ms } = await timed();
      expect(ms).toBeGreaterThanOrEqual(140);
      expect(result.errors.slow?.error.message).toBe('no answer within 150 ms');
    }
    const skipped = await timed();
    // Not asked at all, so nothing to wait for: no wall-clock bound.
    expect(asked.slow).toBe(2);
    expect(Object.keys(skipped.result.offers)).toEqual(['fast']);
    expect(skipped.result.errors.slow?.error).toEqual({ code: 'timeout', message: 'left out: timed out in recent requests' });

    recover();
    // Still left out until the probe interval has passed (it would answer, but nobody asks).
    advance(10_000);
    expect((await timed()).result.offers.slow).toBeUndefined();
    expect(asked.slow).toBe(2);
    advance(25_000);
    // The request that sends the probe does not wait for it; the probe's answer makes the provider healthy.
    const probing = await timed();
    // Answered before the probe's deadline passed (it would have aborted the probe's call): no wall-clock bound.
    expect(lastSlowCall.signal?.aborted).toBe(false);
    expect(Object.keys(probing.result.offers)).toEqual(['fast']);
    expect(asked.slow).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const healthy = await timed();
    expect(Object.keys(healthy.result.offers).sort()).toEqual(['fast', 'slow']);
    expect(asked.slow).toBe(4);
  });

  test('a probe that finds the provider still slow holds no answer, and the next one waits for the interval', async () => {
    const { timed, advance, asked, lastSlowCall } = await slowSetup();
    for (let i = 0; i < 2; i++) await timed();
    advance(30_000);
    const probing = await timed();
    // Answered while the probe's call was still out: its deadline, which aborts it, had not passed.
    expect(lastSlowCall.signal?.aborted).toBe(false);
    expect(probing.result.errors.slow?.error).toEqual({ code: 'timeout', message: 'left out: timed out in recent requests' });
    expect(asked.slow).toBe(3);
    // The probe's own deadline (150 ms) passes with no answer: still slow, and not asked again yet.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lastSlowCall.signal?.aborted).toBe(true);
    advance(10_000);
    expect((await timed()).result.errors.slow?.error.message).toBe('left out: timed out in recent requests');
    expect(asked.slow).toBe(3);
    advance(20_000);
    await timed();
    expect(asked.slow).toBe(4);
  });

  test('when every provider is slow, the answer waits for them all', async () => {
    const never = () => new Promise<ProviderQuote>(() => undefined);
    const providers = new ProviderRegistry([adapter('a', never)]);
    const catalogues = new CatalogueService({ providers, currencies: currencyDictionary, ttlMs: 60_000, timeoutMs: 1000 });
    // Loaded first, as the API does at start: a timeout of a request that waited for a catalogue to load is not counted.
    await catalogues.warm();
    const offers = new OffersService({
      providers,
      catalogues,
      store: new MemoryOfferStore(() => NOW),
      offerTtlSeconds: 120,
      providerTimeoutMs: 80,
      now: () => NOW,
    });
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const result = await offers.getOffers(query);
      expect(Date.now() - started).toBeGreaterThanOrEqual(70);
      expect(result.errors.a?.error.code).toBe('timeout');
    }
  });
});
