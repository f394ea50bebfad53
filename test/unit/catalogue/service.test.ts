import { CatalogueService } from '../../../src/catalogue/service';
import { currencyDictionary } from '../../../src/domain/currencies';
import { ProviderRegistry } from '../../../src/providers/registry';
import { ProviderUnavailableError, type ProviderAdapter, type ProviderCatalogue, type QuoteRequest } from '../../../src/providers/types';

const catalogue = (fiat: number): ProviderCatalogue => ({ fiat: [fiat], crypto: [13], countries: [{ code: 'GB' }], paymentMethods: [] });

function fakeProvider() {
  let calls = 0;
  let next: () => Promise<ProviderCatalogue> = () => Promise.resolve(catalogue(1));
  let quote: (r: QuoteRequest) => Promise<{ fiatAmount: string; processingFee: string }> = () =>
    Promise.reject(new ProviderUnavailableError('no quotes'));
  const adapter = {
    info: { code: 'p', name: 'p', description: 'p', icon_url: 'https://example.org/p.svg' },
    getCatalogue: () => {
      calls++;
      return next();
    },
    getQuote: (r: QuoteRequest) => quote(r),
  } as unknown as ProviderAdapter;
  return {
    adapter,
    calls: () => calls,
    answer: (fn: () => Promise<ProviderCatalogue>) => {
      next = fn;
    },
    quotes: (fn: typeof quote) => {
      quote = fn;
    },
  };
}

function setup() {
  let now = 1_000_000;
  const provider = fakeProvider();
  const service = new CatalogueService({
    providers: new ProviderRegistry([provider.adapter]),
    currencies: currencyDictionary,
    ttlMs: 60_000,
    timeoutMs: 1000,
    now: () => now,
  });
  return { service, provider, advance: (ms: number) => (now += ms) };
}

test('loads once and serves from the cache within the TTL', async () => {
  const { service, provider, advance } = setup();
  expect(await service.get('p')).toEqual(catalogue(1));
  advance(59_000);
  expect(await service.get('p')).toEqual(catalogue(1));
  expect(provider.calls()).toBe(1);
});

test('after the TTL it answers with the stale catalogue at once and runs a single refresh', async () => {
  const { service, provider, advance } = setup();
  await service.get('p');
  advance(60_000);
  let release!: (c: ProviderCatalogue) => void;
  provider.answer(() => new Promise((resolve) => (release = resolve)));
  const answers = await Promise.all([service.get('p'), service.get('p'), service.get('p')]);
  expect(answers).toEqual([catalogue(1), catalogue(1), catalogue(1)]);
  expect(provider.calls()).toBe(2);
  release(catalogue(2));
  await new Promise((r) => setImmediate(r));
  expect(await service.get('p')).toEqual(catalogue(2));
  expect(provider.calls()).toBe(2);
});

test('a failed refresh keeps the stale catalogue', async () => {
  const { service, provider, advance } = setup();
  await service.get('p');
  advance(61_000);
  provider.answer(() => Promise.reject(new Error('down')));
  expect(await service.get('p')).toEqual(catalogue(1));
  await new Promise((r) => setImmediate(r));
  expect(await service.get('p')).toEqual(catalogue(1));
});

test('concurrent first loads share one fetch; a provider that never answered is left out', async () => {
  const { service, provider } = setup();
  provider.answer(() => Promise.reject(new Error('down')));
  expect(await Promise.all([service.get('p'), service.get('p')])).toEqual([undefined, undefined]);
  expect(provider.calls()).toBe(1);
  expect(await service.available()).toEqual([]);
  expect(await service.get('unknown')).toBeUndefined();
});

test("a method without a published fee gets one from the provider's own quote, and keeps it when a later quote fails", async () => {
  const { service, provider, advance } = setup();
  const withCard = (): ProviderCatalogue => ({
    ...catalogue(1),
    paymentMethods: [{ code: 'card', name: 'Card', icon_url: null, limits: { 1: { min: '20', max: '500' } } }],
  });
  provider.answer(() => Promise.resolve(withCard()));
  const asked: QuoteRequest[] = [];
  provider.quotes((r) => {
    asked.push(r);
    return Promise.resolve({ fiatAmount: r.fiatAmount, processingFee: '7.5' });
  });
  expect((await service.get('p'))?.paymentMethods[0]?.fee).toBe('3.75%');
  expect(asked.map((r) => [r.fiat.ticker, r.crypto.ticker, r.fiatAmount, r.country])).toEqual([['USD', 'BTC', '200', 'GB']]);

  advance(60_000);
  provider.answer(() => Promise.resolve({ ...withCard(), fiat: [1, 2] }));
  provider.quotes(() => Promise.reject(new ProviderUnavailableError('down')));
  await service.get('p');
  await new Promise((r) => setImmediate(r));
  const refreshed = await service.get('p');
  expect(provider.calls()).toBe(2);
  expect(refreshed?.fiat).toEqual([1, 2]);
  expect(refreshed?.paymentMethods[0]?.fee).toBe('3.75%');
});

test('a catalogue left with a method without its fee is fetched again after the retry interval, not the whole TTL', async () => {
  let now = 1_000_000;
  const provider = fakeProvider();
  const service = new CatalogueService({
    providers: new ProviderRegistry([provider.adapter]),
    currencies: currencyDictionary,
    ttlMs: 300_000,
    timeoutMs: 1000,
    incompleteRetryMs: 30_000,
    now: () => now,
  });
  provider.answer(() =>
    Promise.resolve({
      ...catalogue(1),
      paymentMethods: [{ code: 'card', name: 'Card', icon_url: null, limits: { 1: { min: '20', max: '500' } } }],
    }),
  );
  const settle = () => new Promise((r) => setImmediate(r));
  expect((await service.get('p'))?.paymentMethods[0]?.fee).toBeUndefined();
  now += 29_000;
  await service.get('p');
  expect(provider.calls()).toBe(1);

  now += 1_000;
  provider.quotes((r) => Promise.resolve({ fiatAmount: r.fiatAmount, processingFee: '5' }));
  await service.get('p');
  await settle();
  expect(provider.calls()).toBe(2);
  expect((await service.get('p'))?.paymentMethods[0]?.fee).toBe('2.5%');

  // Complete now: the TTL applies again.
  now += 60_000;
  await service.get('p');
  expect(provider.calls()).toBe(2);
  now += 240_000;
  await service.get('p');
  expect(provider.calls()).toBe(3);
});
