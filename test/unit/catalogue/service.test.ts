import { CatalogueService } from '../../../src/catalogue/service';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { Logger } from '../../../src/logging';
import { ProviderRegistry } from '../../../src/providers/registry';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  type ProviderAdapter,
  type ProviderCatalogue,
  type QuoteRequest,
} from '../../../src/providers/types';

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

describe('a method still missing its fee', () => {
  const card = { code: 'card', name: 'Card', icon_url: null, limits: { 1: { min: '20', max: '500' } } };
  const gpay = { code: 'google_pay', name: 'Google Pay', icon_url: null, limits: { 1: { min: '10', max: '500' } } };
  /** No fiat currency of the dictionary: no reference quote can be asked. */
  const odd = { code: 'odd', name: 'Odd', icon_url: null, limits: { 99_999: { min: '1', max: '5' } } };

  function withMethods(...paymentMethods: ProviderCatalogue['paymentMethods']) {
    let now = 1_000_000;
    const provider = fakeProvider();
    provider.answer(() => Promise.resolve({ ...catalogue(1), paymentMethods }));
    const asked: string[] = [];
    const warned: string[] = [];
    const logger = {
      warn: (fields: { method?: string }, message: string) => warned.push(`${fields.method}: ${message}`),
    } as unknown as Logger;
    const service = new CatalogueService({
      providers: new ProviderRegistry([provider.adapter]),
      currencies: currencyDictionary,
      ttlMs: 300_000,
      timeoutMs: 1000,
      logger,
      now: () => now,
    });
    /** Each method's quote: its fee out of 100, or the error it fails with. */
    const answers = (byMethod: Record<string, string | Error>) =>
      provider.quotes((r) => {
        asked.push(r.paymentMethod);
        const answer = byMethod[r.paymentMethod]!;
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ fiatAmount: '100', processingFee: answer });
      });
    /** The catalogue at `ms` from now, after the refresh that starts then has run. */
    const at = async (ms: number) => {
      now += ms;
      await service.get('p');
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      return service.cached('p');
    };
    return { provider, service, answers, asked, warned, at };
  }

  test('that can never load (refused for every currency, or nothing to ask) waits for the TTL, and is logged once per TTL', async () => {
    const { provider, answers, warned, at } = withMethods(card, odd);
    answers({ card: new ProviderRejectedError('payment_method', 'not for you') });
    await at(0);
    expect(provider.calls()).toBe(1);
    expect(warned.sort()).toEqual(['card: no reference fee for payment method', 'odd: no reference fee for payment method']);
    await at(30_000);
    await at(60_000);
    await at(209_999);
    expect(provider.calls()).toBe(1);
    expect(warned).toHaveLength(2);
    await at(1);
    expect(provider.calls()).toBe(2);
    expect(warned).toHaveLength(4);
  });

  test('that timed out is fetched again after 30 s, then 60 s, 120 s... up to the TTL; the wait starts over once complete', async () => {
    const { provider, answers, at } = withMethods(card);
    answers({ card: new ProviderUnavailableError('GET /quote: timed out after 1000 ms') });
    await at(0);
    await at(29_999);
    expect(provider.calls()).toBe(1);
    await at(1);
    expect(provider.calls()).toBe(2);
    await at(59_999);
    expect(provider.calls()).toBe(2);
    await at(1);
    expect(provider.calls()).toBe(3);
    await at(119_999);
    expect(provider.calls()).toBe(3);
    await at(1);
    expect(provider.calls()).toBe(4);
    await at(240_000);
    expect(provider.calls()).toBe(5);
    // Capped at the TTL.
    await at(299_999);
    expect(provider.calls()).toBe(5);
    answers({ card: '2' });
    expect((await at(1))?.paymentMethods[0]?.fee).toBe('2%');
    expect(provider.calls()).toBe(6);
    answers({ card: new DOMException('The operation was aborted due to timeout', 'TimeoutError') });
    await at(300_000);
    expect(provider.calls()).toBe(7);
    // Complete a moment ago: the first wait is 30 s again. (The fee read within the TTL is kept.)
    await at(30_000);
    expect(provider.calls()).toBe(7);
  });

  test('an early retry asks only for the fees still missing and keeps those read; the TTL reads them all again', async () => {
    const { provider, answers, asked, warned, at } = withMethods(card, gpay, odd);
    answers({ card: '3', google_pay: new ProviderUnavailableError('down') });
    const first = await at(0);
    expect(first?.paymentMethods.map((m) => m.fee)).toEqual(['3%', undefined, undefined]);
    expect(asked.sort()).toEqual(['card', 'google_pay']);
    expect(warned.sort()).toEqual(['google_pay: no reference fee for payment method', 'odd: no reference fee for payment method']);

    asked.length = 0;
    warned.length = 0;
    answers({ card: new ProviderUnavailableError('down'), google_pay: '1' });
    const retried = await at(30_000);
    expect(provider.calls()).toBe(2);
    expect(asked).toEqual(['google_pay']);
    expect(retried?.paymentMethods.map((m) => m.fee)).toEqual(['3%', '1%', undefined]);
    // The fee that can never load is not logged again at the retry.
    expect(warned).toEqual([]);

    asked.length = 0;
    answers({ card: '4', google_pay: '5' });
    // Complete but for the fee that cannot load: served for the TTL.
    await at(299_999);
    expect(provider.calls()).toBe(2);
    const renewed = await at(1);
    expect(provider.calls()).toBe(3);
    expect(asked.sort()).toEqual(['card', 'google_pay']);
    expect(renewed?.paymentMethods.map((m) => m.fee)).toEqual(['4%', '5%', undefined]);
    expect(warned).toEqual(['odd: no reference fee for payment method']);
  });
});
