/**
 * OffersService with adaptive deadlines, a per-provider cap and coalescing, against fake providers:
 * a provider turning slow costs a request at most its adaptive deadline, not the configured maximum.
 */
import { CatalogueService } from '../../../src/catalogue/service';
import { currencyDictionary } from '../../../src/domain/currencies';
import { OffersService, type OffersServiceOptions } from '../../../src/offers/service';
import { MemoryOfferStore } from '../../../src/offers/store';
import { quoteKeyOf } from '../../../src/providers/kit/quote-key';
import { ProviderRegistry } from '../../../src/providers/registry';
import type { ProviderAdapter, ProviderCatalogue, ProviderQuote } from '../../../src/providers/types';
import { BTC, CARD, fakeProvider, goodQuote, NOW, offersQuery, USD } from '../../helpers/offers';

const MAX_MS = 2000;

const CATALOGUE: ProviderCatalogue = {
  fiat: [USD.id],
  crypto: [BTC.id],
  countries: [{ code: 'GB' }],
  paymentMethods: [CARD],
};
const query = offersQuery;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A provider answering in `latency.ms`, or never while `latency.ms` is Infinity; it counts its calls. */
function provider(code: string, latency: { ms: number }, quoteKey?: ProviderAdapter['quoteKey']) {
  const asked = { calls: 0 };
  const adapter: ProviderAdapter = {
    ...fakeProvider(code, CATALOGUE, (_request, signal) => {
      asked.calls++;
      if (!Number.isFinite(latency.ms)) return new Promise<ProviderQuote>(() => undefined);
      return new Promise<ProviderQuote>((resolve, reject) => {
        const timer = setTimeout(() => resolve(goodQuote), latency.ms);
        signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('aborted'))));
      });
    }),
    ...(quoteKey ? { quoteKey } : {}),
  };
  return { adapter, asked };
}

function setup(adapters: ProviderAdapter[], options: Partial<OffersServiceOptions> = {}) {
  let clock = NOW;
  const providers = new ProviderRegistry(adapters);
  const offers = new OffersService({
    providers,
    catalogues: new CatalogueService({ providers, currencies: currencyDictionary, ttlMs: 600_000, timeoutMs: MAX_MS }),
    store: new MemoryOfferStore(() => clock),
    offerTtlSeconds: 120,
    providerTimeoutMs: MAX_MS,
    deadlineFloorMs: 150,
    deadlineMultiplier: 2,
    now: () => clock,
    ...options,
  });
  const timed = async (overrides: Partial<typeof query> = {}) => {
    const started = performance.now();
    const result = await offers.getOffers({ ...query, ...overrides });
    return { result, ms: performance.now() - started };
  };
  return { offers, timed, advance: (ms: number) => (clock += ms) };
}

/** Enough answers for the adaptive deadline to take over from the maximum (20). */
async function warm(timed: () => Promise<unknown>) {
  for (let i = 0; i < 25; i++) await timed();
}

test('a provider turning slow costs a request its adaptive deadline (a multiple of its usual latency), not the maximum', async () => {
  const fast = provider('fast', { ms: 5 });
  const latency = { ms: 20 };
  const turning = provider('turning', latency);
  const { timed } = setup([fast.adapter, turning.adapter]);
  await warm(timed);

  latency.ms = Number.POSITIVE_INFINITY;
  const first = await timed();
  // 2 x its p99 (about 20 ms) is below the floor of 150 ms: the deadline is the floor (a little more on
  // a busy machine, whose timers run late), far below the 2000 ms maximum.
  expect(Object.keys(first.result.offers)).toEqual(['fast']);
  const deadline = Number(/^no answer within (\d+) ms$/.exec(first.result.errors.turning!.error.message)![1]);
  expect(deadline).toBeGreaterThanOrEqual(150);
  expect(deadline).toBeLessThan(400);
  expect(first.ms).toBeGreaterThanOrEqual(deadline - 10);
  expect(first.ms).toBeLessThan(1000);
});

test("the deadline follows the provider's own latency: twice its p99 above the floor", async () => {
  const latency = { ms: 120 };
  const turning = provider('turning', latency);
  const { timed } = setup([provider('fast', { ms: 5 }).adapter, turning.adapter]);
  await warm(timed);
  latency.ms = Number.POSITIVE_INFINITY;
  const slowed = await timed();
  const deadline = Number(/within (\d+) ms/.exec(slowed.result.errors.turning!.error.message)![1]);
  // Its p99 is about 120 ms (more with the timers' lateness): the deadline about 240 ms.
  expect(deadline).toBeGreaterThanOrEqual(240);
  // A busy machine's timers run late: up to 2 x 300 ms, still far below the 2000 ms maximum.
  expect(deadline).toBeLessThan(600);
  expect(slowed.ms).toBeLessThan(deadline + 150);
}, 20_000);

test('with no history a provider gets the full maximum (cold start)', async () => {
  const turning = provider('turning', { ms: 300 });
  const { timed } = setup([provider('fast', { ms: 5 }).adapter, turning.adapter]);
  const cold = await timed();
  // 300 ms is above the floor (150 ms) but within the maximum: it is waited for.
  expect(Object.keys(cold.result.offers).sort()).toEqual(['fast', 'turning']);
});

test('when a provider turns slow, the requests still waiting for it leave it out at once', async () => {
  const latency = { ms: 20 };
  const turning = provider('turning', latency);
  const { timed } = setup([provider('fast', { ms: 5 }).adapter, turning.adapter]);
  await warm(timed);
  latency.ms = Number.POSITIVE_INFINITY;
  // Two requests time out together at the 150 ms deadline: two timeouts in a row make the provider slow...
  const firstWave = [timed(), timed()];
  await sleep(90);
  // ...and this one, sent 90 ms later, stops waiting then, about 60 ms in, not at its own deadline.
  const later = await timed({ externalUserId: 'u2' });
  const [a, b] = await Promise.all(firstWave);
  expect(a!.result.errors.turning?.error.code).toBe('timeout');
  expect(b!.result.errors.turning?.error.code).toBe('timeout');
  expect(later.result.errors.turning?.error).toEqual({ code: 'timeout', message: 'left out: timed out in recent requests' });
  // (The message says so: at its own deadline it would read "no answer within ... ms".)
  expect(later.ms).toBeLessThan(250);
  // And the next one does not ask it at all.
  const calls = turning.asked.calls;
  const skipped = await timed();
  expect(skipped.ms).toBeLessThan(60);
  expect(turning.asked.calls).toBe(calls);
});

test('a probe gets the full maximum, so a provider back at a slower speed shows it has recovered, and its deadline is learnt again', async () => {
  const latency = { ms: 20 };
  const turning = provider('turning', latency);
  const { timed, advance } = setup([provider('fast', { ms: 5 }).adapter, turning.adapter], { slowProbeIntervalMs: 30_000 });
  await warm(timed);
  latency.ms = Number.POSITIVE_INFINITY;
  await timed();
  await timed();
  expect((await timed()).result.errors.turning?.error.message).toBe('left out: timed out in recent requests');

  // Back, but at 400 ms: beyond its old deadline (150 ms), within the maximum (2000 ms).
  latency.ms = 400;
  advance(30_000);
  const probing = await timed();
  expect(probing.ms).toBeLessThan(100);
  await sleep(450);
  // The probe answered in time: healthy again, with the maximum as its deadline until it has new answers.
  const recovered = await timed();
  expect(Object.keys(recovered.result.offers).sort()).toEqual(['fast', 'turning']);
  expect(recovered.ms).toBeGreaterThanOrEqual(390);
}, 20_000);

test('identical quotes of concurrent requests are one call to the provider; another amount is another call', async () => {
  const shared = provider('shared', { ms: 50 }, (r) => quoteKeyOf(r, ['fiat', 'crypto', 'fiatAmount', 'paymentMethod']));
  const { timed } = setup([shared.adapter]);
  const results = await Promise.all([
    timed({ externalUserId: 'u1' }),
    timed({ externalUserId: 'u2' }),
    timed({ externalUserId: 'u3' }),
    timed({ externalUserId: 'u4', amountFrom: '200' }),
  ]);
  expect(results.every((r) => r.result.offers.shared !== undefined)).toBe(true);
  expect(shared.asked.calls).toBe(2);
});

test('a request whose deadline passes leaves the call it shares with a later request running for that one', async () => {
  const latency = { ms: 20 };
  const shared = provider('shared', latency);
  const { timed } = setup([shared.adapter]);
  await warm(timed);
  const calls = shared.asked.calls;
  // Its deadline is now the floor, 150 ms (a little more on a busy machine); this call takes 250 ms.
  latency.ms = 250;
  const first = timed();
  await sleep(120);
  // The same quote 120 ms later joins the call in flight; the first request gives up on it at 150 ms...
  const second = await timed();
  const early = await first;
  expect(early.result.errors.shared?.error.message).toMatch(/^no answer within \d+ ms$/);
  // ...and the call goes on: its answer at 250 ms is the second request's offer, within its own deadline (270 ms).
  expect(second.result.offers.shared).toBeDefined();
  expect(second.ms).toBeLessThan(150);
  expect(shared.asked.calls).toBe(calls + 1);
});

test('quote calls in flight to one provider stay under the cap; the rest wait within their deadline', async () => {
  let inFlight = 0;
  let most = 0;
  const capped: ProviderAdapter = {
    ...provider('capped', { ms: 0 }).adapter,
    getQuote: async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await sleep(20);
      inFlight--;
      return goodQuote;
    },
  };
  const { offers } = setup([capped], { quoteConcurrency: 3 });
  // Ten users with ten amounts: ten different calls.
  const results = await Promise.all(
    Array.from({ length: 10 }, (_, i) => offers.getOffers({ ...query, externalUserId: `u${i}`, amountFrom: `${100 + i}` })),
  );
  expect(results.every((r) => r.offers.capped !== undefined)).toBe(true);
  expect(most).toBe(3);
});

test('when every provider is slow, each is asked under its own deadline, not the maximum', async () => {
  const a = { ms: 20 };
  const b = { ms: 20 };
  const { timed } = setup([provider('a', a).adapter, provider('b', b).adapter]);
  await warm(timed);
  a.ms = b.ms = Number.POSITIVE_INFINITY;
  await timed();
  await timed();
  const allSlow = await timed();
  const deadline = Number(/^no answer within (\d+) ms$/.exec(allSlow.result.errors.a!.error.message)![1]);
  expect(deadline).toBeLessThan(600);
  expect(allSlow.ms).toBeLessThan(1000);
  // One answers again: it is healthy at once.
  a.ms = 20;
  const back = await timed();
  expect(Object.keys(back.result.offers)).toEqual(['a']);
});

test('a provider left out after timeouts under its short adaptive deadline is probed again after the maximum, not the probe interval', async () => {
  const latency = { ms: 20 };
  const turning = provider('turning', latency);
  const { timed, advance } = setup([provider('fast', { ms: 5 }).adapter, turning.adapter], { slowProbeIntervalMs: 30_000 });
  await warm(timed);
  // A moment of load: two timeouts in a row, then it answers as before.
  latency.ms = Number.POSITIVE_INFINITY;
  await timed();
  await timed();
  latency.ms = 20;
  expect((await timed()).result.offers.turning).toBeUndefined();
  advance(MAX_MS);
  await timed();
  await sleep(50);
  expect(Object.keys((await timed()).result.offers).sort()).toEqual(['fast', 'turning']);
});

test('timeouts while the provider answers calls sent after them are stragglers: they do not make it slow', async () => {
  const stuckUsers = new Set(['stuck1', 'stuck2']);
  let calls = 0;
  const straggling: ProviderAdapter = {
    ...provider('p', { ms: 0 }).adapter,
    // The quote of a stuck user hangs; every other answers in 20 ms (the default key keeps users apart).
    getQuote: (request) => {
      calls++;
      return stuckUsers.has(request.externalUserId) ? new Promise<ProviderQuote>(() => undefined) : sleep(20).then(() => goodQuote);
    },
  };
  const { timed } = setup([provider('fast', { ms: 5 }).adapter, straggling]);
  await warm(timed);
  const stuck = [timed({ externalUserId: 'stuck1' }), timed({ externalUserId: 'stuck2' })];
  await sleep(30);
  // A call sent after theirs is answered before they time out.
  expect((await timed({ externalUserId: 'u2' })).result.offers.p).toBeDefined();
  for (const { result } of await Promise.all(stuck)) expect(result.errors.p?.error.message).toMatch(/^no answer within \d+ ms$/);
  const asked = calls;
  const after = await timed({ externalUserId: 'u3' });
  expect(after.result.offers.p).toBeDefined();
  expect(calls).toBe(asked + 1);
});

test('a provider that quotes one method fast and hangs on another turns slow: its own fast answers do not excuse it', async () => {
  const methods = {
    ...CATALOGUE,
    paymentMethods: [...CATALOGUE.paymentMethods, { ...CATALOGUE.paymentMethods[0]!, code: 'bank_transfer' }],
  };
  const bank = { hangs: false };
  const split: ProviderAdapter = {
    ...provider('split', { ms: 0 }).adapter,
    getCatalogue: () => Promise.resolve(methods),
    getQuote: (request) =>
      request.paymentMethod === 'bank_transfer' && bank.hangs
        ? new Promise<ProviderQuote>(() => undefined)
        : sleep(10).then(() => goodQuote),
  };
  const { timed } = setup([provider('fast', { ms: 5 }).adapter, split]);
  await warm(timed);
  bank.hangs = true;
  for (let i = 0; i < 2; i++) expect((await timed()).result.errors.split?.error.message).toMatch(/^no answer within \d+ ms$/);
  const after = await timed();
  expect(after.result.errors.split?.error.message).toBe('left out: timed out in recent requests');
  expect(after.ms).toBeLessThan(100);
});

test('calls the deadline cuts short still count: a slow mode it cuts off raises it', async () => {
  const latency = { ms: 20 };
  const { offers, timed } = setup([provider('fast', { ms: 5 }).adapter, provider('moody', latency).adapter]);
  await warm(timed);
  const before = (offers as unknown as { calls: { deadlineMs(code: string): number } }).calls.deadlineMs('moody');
  latency.ms = 1_000;
  await timed();
  latency.ms = 20;
  for (let i = 0; i < 8; i++) await timed();
  expect((offers as unknown as { calls: { deadlineMs(code: string): number } }).calls.deadlineMs('moody')).toBeGreaterThan(before);
});

describe('time spent waiting for a slot is not the provider being slow', () => {
  test('timeouts of requests whose calls waited behind the cap (sent late, or never) do not make the provider slow', async () => {
    // Cold (fewer than 20 answers): the deadline is the maximum, 400 ms; the provider answers in 300.
    const waitedOut = provider('waited', { ms: 300 });
    const { timed } = setup([provider('fast', { ms: 5 }).adapter, waitedOut.adapter], { quoteConcurrency: 1, providerTimeoutMs: 400 });
    // Three at once: the first is sent and answered; the second is sent at 300 ms and cut at 400; the
    // third waits all its deadline. Neither timeout is the provider's.
    const burst = await Promise.all([100, 101, 102].map((amount) => timed({ amountFrom: `${amount}` })));
    expect(burst.map(({ result }) => result.errors.waited?.error.code ?? 'offer')).toEqual(['offer', 'timeout', 'timeout']);
    const after = await timed({ amountFrom: '103' });
    expect(after.result.offers.waited).toBeDefined();
  });

  test("one integrator's burst leaves another the provider: its call is sent at once in the rest of the cap", async () => {
    const slow = provider('slow', { ms: 100 });
    const { timed } = setup([provider('fast', { ms: 5 }).adapter, slow.adapter], {
      quoteConcurrency: 4,
      quoteIntegratorShare: 0.75,
      providerTimeoutMs: 400,
    });
    const burst = Array.from({ length: 40 }, (_, i) => timed({ integratorId: 'a', amountFrom: `${100 + i}` }));
    await sleep(20);
    const theirs = await timed({ integratorId: 'b', amountFrom: '99' });
    expect(theirs.result.offers.slow).toBeDefined();
    expect(theirs.ms).toBeLessThan(300);
    const ours = await Promise.all(burst);
    expect(ours.filter(({ result }) => result.errors.slow?.error.code === 'timeout').length).toBeGreaterThan(20);
    // And no one's wait made it slow.
    expect((await timed({ integratorId: 'b', amountFrom: '98' })).result.offers.slow).toBeDefined();
  });
});

test("requests whose deadline went to loading the provider's first catalogue do not make it slow", async () => {
  // The catalogue takes 600 ms (CATALOGUE_TIMEOUT_MS allows it); a quote's deadline is 400 ms.
  const loading = provider('loading', { ms: 5 });
  const adapter: ProviderAdapter = { ...loading.adapter, getCatalogue: () => sleep(600).then(() => CATALOGUE) };
  const { timed } = setup([provider('fast', { ms: 5 }).adapter, adapter], { providerTimeoutMs: 400 });
  // Two timeouts in a row would make a provider slow (left out without being asked).
  const first = await Promise.all([timed(), timed({ externalUserId: 'u2' })]);
  expect(first.map(({ result }) => result.errors.loading?.error.code)).toEqual(['timeout', 'timeout']);
  expect(loading.asked.calls).toBe(0);
  await sleep(250);
  const after = await timed();
  expect(after.result.offers.loading).toBeDefined();
  expect(loading.asked.calls).toBe(1);
});
