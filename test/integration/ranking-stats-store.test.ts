/**
 * The outcome statistics stores, the same cases against both implementations (in memory, and in a
 * real redis-server started for this file), then what only Redis gives: two processes sharing it,
 * and statistics that outlive the process. Last, RankingStats reading a store in the background.
 */
import { createLogger } from '../../src/logging';
import type { LevelCounters } from '../../src/ranking/decay';
import { foldOutcome } from '../../src/ranking/fold';
import type { OrderOutcome } from '../../src/ranking/outcome';
import { RankingStats } from '../../src/ranking/ranking-stats';
import { parseLevel, RedisOutcomeStatsStore } from '../../src/ranking/redis-stats-store';
import { dedupeRetentionMs, MemoryOutcomeStatsStore, type OutcomeStatsStore } from '../../src/ranking/stats-store';
import { createOutcomeStatsStore } from '../../src/ranking/store-factory';
import { connectRedis } from '../../src/redis/connection';
import { useSharedRedis } from '../helpers/redis';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const HALF_LIFE = 168 * HOUR;
const T0 = Date.UTC(2026, 0, 1);
const logger = createLogger('silent', 'test');

const shared = useSharedRedis();

beforeEach(async () => {
  await shared.first.client.flushAll();
});

let runs = 0;
function outcome(extra: Partial<OrderOutcome> = {}): OrderOutcome {
  return {
    runId: `run-${++runs}`,
    providerCode: 'moonpay',
    country: 'GB',
    paymentMethod: 'card',
    kind: 'complete',
    completeMs: 120_000,
    finishedAtMs: T0,
    ...extra,
  };
}

function expectCountersClose(actual: LevelCounters | undefined, expected: LevelCounters): void {
  expect(actual).toBeDefined();
  expect(actual!.atMs).toBe(expected.atMs);
  for (const name of ['attempts', 'completed', 'refused', 'completeMsSum', 'timed'] as const) {
    expect(actual![name]).toBeCloseTo(expected[name], 9);
  }
}

type MakeStore = (now: () => number, halfLifeMs?: number) => OutcomeStatsStore;
const implementations: [string, MakeStore][] = [
  ['MemoryOutcomeStatsStore', (now, halfLifeMs = HALF_LIFE) => new MemoryOutcomeStatsStore({ halfLifeMs, now })],
  ['RedisOutcomeStatsStore', (now, halfLifeMs = HALF_LIFE) => new RedisOutcomeStatsStore(shared.first.client, { halfLifeMs, now })],
];

describe.each(implementations)('%s', (_name, makeStore) => {
  function storeAt(start = T0, halfLifeMs?: number): { store: OutcomeStatsStore; clock: { now: number } } {
    const clock = { now: start };
    return { store: makeStore(() => clock.now, halfLifeMs), clock };
  }

  test('starts empty, with no cursor', async () => {
    const { store } = storeAt();
    expect((await store.snapshot()).levels.size).toBe(0);
    await expect(store.getCursor()).resolves.toBeUndefined();
  });

  test('folds an outcome into each of its levels', async () => {
    const { store } = storeAt();
    await expect(store.record(outcome())).resolves.toBe(true);
    await expect(store.record(outcome({ kind: 'refused', completeMs: undefined, country: undefined }))).resolves.toBe(true);
    const { levels } = await store.snapshot();
    expect([...levels.keys()].sort()).toEqual(['*', 'moonpay', 'moonpay|GB|card', 'moonpay|card']);
    expect(levels.get('moonpay|GB|card')).toEqual({ atMs: T0, attempts: 1, completed: 1, refused: 0, completeMsSum: 120_000, timed: 1 });
    expect(levels.get('moonpay')).toEqual({ atMs: T0, attempts: 2, completed: 1, refused: 1, completeMsSum: 120_000, timed: 1 });
  });

  test("folds an integrator's outcome into the shared levels and the same levels under the integrator", async () => {
    const { store } = storeAt();
    await store.record(outcome({ integratorId: 'acme' }));
    await store.record(outcome({ integratorId: 'acme', kind: 'not_complete', completeMs: undefined }));
    await store.record(outcome({ integratorId: 'other', kind: 'refused', completeMs: undefined }));
    await store.record(outcome({ kind: 'not_complete', completeMs: undefined }));
    const { levels, integrators } = await store.snapshot();
    expect([...levels.keys()].sort()).toEqual(['*', 'moonpay', 'moonpay|GB|card', 'moonpay|card']);
    expect(levels.get('moonpay|GB|card')).toMatchObject({ attempts: 4, completed: 1, refused: 1 });
    expect([...integrators.keys()].sort()).toEqual(['acme', 'other']);
    const acme = integrators.get('acme')!;
    expect([...acme.keys()].sort()).toEqual(['*', 'moonpay', 'moonpay|GB|card', 'moonpay|card']);
    for (const key of acme.keys())
      expect(acme.get(key)).toEqual({ atMs: T0, attempts: 2, completed: 1, refused: 0, completeMsSum: 120_000, timed: 1 });
    expect(integrators.get('other')!.get('moonpay|GB|card')).toMatchObject({ attempts: 1, completed: 0, refused: 1 });
  });

  test("a revived order's completion counts for its integrator too, once", async () => {
    const { store } = storeAt();
    const order = outcome({ integratorId: 'acme', kind: 'not_complete', completeMs: undefined });
    await store.record(order);
    await store.record({ ...order, kind: 'complete', completeMs: 60_000 });
    await store.record({ ...order, kind: 'complete', completeMs: 60_000 });
    const { levels, integrators } = await store.snapshot();
    expect(integrators.get('acme')!.get('moonpay')).toEqual(levels.get('moonpay'));
    expect(levels.get('moonpay')).toMatchObject({ attempts: 1, completed: 1 });
  });

  test('an order counted not complete that completes later adds its completion alone, once', async () => {
    const { store } = storeAt();
    const order = outcome({ kind: 'not_complete', completeMs: undefined });
    await expect(store.record(order)).resolves.toBe(true);
    const revived = { ...order, kind: 'complete' as const, completeMs: 60_000 };
    await expect(store.record(revived)).resolves.toBe(true);
    await expect(store.record(revived)).resolves.toBe(false);
    await expect(store.record(order)).resolves.toBe(false);
    expect((await store.snapshot()).levels.get('moonpay|GB|card')).toEqual({
      atMs: T0,
      attempts: 1,
      completed: 1,
      refused: 0,
      completeMsSum: 60_000,
      timed: 1,
    });
  });

  test('an order recorded complete first is not counted again when a settled status repeats', async () => {
    const { store } = storeAt();
    const done = outcome();
    await expect(store.record(done)).resolves.toBe(true);
    await expect(store.record({ ...done, kind: 'not_complete', completeMs: undefined })).resolves.toBe(false);
    await expect(store.record(done)).resolves.toBe(false);
    expect((await store.snapshot()).levels.get('moonpay')).toMatchObject({ attempts: 1, completed: 1 });
  });

  test('folds a run once: the same run id again is refused and changes nothing', async () => {
    const { store } = storeAt();
    const first = outcome();
    await expect(store.record(first)).resolves.toBe(true);
    await expect(store.record({ ...first, kind: 'not_complete' })).resolves.toBe(false);
    expect((await store.snapshot()).levels.get('*')).toMatchObject({ attempts: 1, completed: 1 });
  });

  test('folds the same run id once under concurrent records', async () => {
    const { store } = storeAt();
    const same = outcome();
    const answers = await Promise.all(Array.from({ length: 25 }, () => store.record(same)));
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect((await store.snapshot()).levels.get('*')!.attempts).toBe(1);
  });

  test('remembers a folded run id for the dedupe retention, then forgets it', async () => {
    const { store, clock } = storeAt();
    const run = outcome();
    await store.record(run);
    clock.now = T0 + dedupeRetentionMs(HALF_LIFE) - 1;
    await expect(store.record(run)).resolves.toBe(false);
    clock.now = T0 + dedupeRetentionMs(HALF_LIFE) + 1;
    await expect(store.record(run)).resolves.toBe(true);
  });

  test('keeps run ids 31 days when 8 half-lives are shorter', async () => {
    const { store, clock } = storeAt(T0, 24 * HOUR);
    const run = outcome();
    await store.record(run);
    clock.now = T0 + 31 * DAY - 1;
    await expect(store.record(run)).resolves.toBe(false);
    clock.now = T0 + 31 * DAY + 1;
    await expect(store.record(run)).resolves.toBe(true);
  });

  test('folds outcomes in any order to the counters the pure fold gives in order', async () => {
    const { store } = storeAt();
    const outcomes = Array.from({ length: 40 }, (_, i) =>
      outcome({
        finishedAtMs: T0 + ((i * 7919) % 40) * 6 * HOUR,
        kind: i % 5 === 0 ? 'refused' : i % 3 === 0 ? 'not_complete' : 'complete',
        completeMs: 60_000 + i * 1000,
        paymentMethod: i % 2 === 0 ? 'card' : 'sepa',
      }),
    );
    for (const o of outcomes) await store.record(o);
    const expected = new Map<string, LevelCounters>();
    for (const o of [...outcomes].sort((a, b) => a.finishedAtMs - b.finishedAtMs)) foldOutcome(expected, o, HALF_LIFE);
    const { levels } = await store.snapshot();
    expect([...levels.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, counters] of expected) expectCountersClose(levels.get(key), counters);
  });

  test('keeps the cursor it is given', async () => {
    const { store } = storeAt();
    await store.setCursor(T0 + 1234);
    await expect(store.getCursor()).resolves.toBe(T0 + 1234);
    await store.setCursor(T0);
    await expect(store.getCursor()).resolves.toBe(T0);
  });
});

describe('dedupeRetentionMs', () => {
  it('is 8 half-lives or 31 days, whichever is longer', () => {
    expect(dedupeRetentionMs(168 * HOUR)).toBe(56 * DAY);
    expect(dedupeRetentionMs(24 * HOUR)).toBe(31 * DAY);
  });
});

describe('RedisOutcomeStatsStore shared by processes', () => {
  test('two processes recording the same run ids at once fold each once', async () => {
    const stores = [shared.first, shared.second].map((c) => new RedisOutcomeStatsStore(c.client, { halfLifeMs: HALF_LIFE, now: () => T0 }));
    const batch = Array.from({ length: 50 }, () => outcome());
    const answers = await Promise.all(batch.flatMap((o) => stores.map((s) => s.record(o))));
    expect(answers.filter(Boolean)).toHaveLength(50);
    expect((await stores[1]!.snapshot()).levels.get('*')!.attempts).toBe(50);
  });

  test('the statistics and the cursor outlive the store: a new connection and store read them back', async () => {
    const first = new RedisOutcomeStatsStore(shared.first.client, { halfLifeMs: HALF_LIFE, now: () => T0 });
    await first.record(outcome());
    await first.record(outcome({ kind: 'not_complete' }));
    await first.setCursor(T0 + 5);
    const before = await first.snapshot();

    const connection = await connectRedis(shared.server.url, logger);
    try {
      const again = createOutcomeStatsStore(connection.client, { halfLifeMs: HALF_LIFE });
      expect(again).toBeInstanceOf(RedisOutcomeStatsStore);
      await expect(again.getCursor()).resolves.toBe(T0 + 5);
      expect(await again.snapshot()).toEqual(before);
      expect(before.levels.get('*')).toMatchObject({ attempts: 2, completed: 1 });
    } finally {
      await connection.close();
    }
  });

  test('a flushed Redis reads as an empty store, with no cursor (so the indexer rebuilds)', async () => {
    const store = new RedisOutcomeStatsStore(shared.first.client, { halfLifeMs: HALF_LIFE });
    await store.record(outcome());
    await store.setCursor(T0);
    await shared.first.client.flushAll();
    await expect(store.getCursor()).resolves.toBeUndefined();
    expect((await store.snapshot()).levels.size).toBe(0);
  });

  test('keeps its keys under its prefix, and skips a levels field it cannot read', async () => {
    const store = new RedisOutcomeStatsStore(shared.first.client, { halfLifeMs: HALF_LIFE, prefix: 'test:rk:' });
    await store.record(outcome());
    await store.setCursor(T0);
    expect((await shared.first.client.keys('*')).sort()).toEqual(['test:rk:cursor', 'test:rk:levels', 'test:rk:runs']);
    // An integrator's levels are fields of the same hash, keyed as the memory store keys them (levels.ts).
    await store.record(outcome({ integratorId: 'acme' }));
    expect((await shared.first.client.keys('*')).sort()).toEqual(['test:rk:cursor', 'test:rk:levels', 'test:rk:runs']);
    expect(Number(await shared.first.client.hExists('test:rk:levels', '@acme|moonpay|GB|card'))).toBe(1);
    await shared.first.client.hSet('test:rk:levels', 'broken', 'not,numbers');
    expect((await store.snapshot()).levels.has('broken')).toBe(false);
    expect(parseLevel('1,2,3,4,5,6')).toEqual({ atMs: 1, attempts: 2, completed: 3, refused: 4, completeMsSum: 5, timed: 6 });
  });

  test('the memory store is chosen without a Redis client', () => {
    expect(createOutcomeStatsStore(undefined, { halfLifeMs: HALF_LIFE })).toBeInstanceOf(MemoryOutcomeStatsStore);
  });
});

describe('RankingStats', () => {
  const waitFor = async (check: () => boolean, ms = 5000) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  test('reads the first snapshot at start, then picks up new outcomes in the background', async () => {
    const store = new RedisOutcomeStatsStore(shared.first.client, { halfLifeMs: HALF_LIFE });
    await store.record(outcome());
    const stats = new RankingStats(store, { refreshMs: 20, logger });
    expect(stats.level('*')).toBeUndefined();
    await stats.start();
    try {
      expect(stats.level('*')?.attempts).toBe(1);
      await store.record(outcome({ providerCode: 'banxa' }));
      await waitFor(() => stats.level('banxa') !== undefined);
      expect(stats.snapshot().levels.get('*')?.attempts).toBe(2);
    } finally {
      await stats.stop();
    }
  });

  test('stops refreshing after stop()', async () => {
    const store = new MemoryOutcomeStatsStore({ halfLifeMs: HALF_LIFE });
    const stats = new RankingStats(store, { refreshMs: 10, logger });
    await stats.start();
    await stats.stop();
    await store.record(outcome());
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(stats.level('*')).toBeUndefined();
  });

  test('keeps the last snapshot and logs when the store cannot be read', async () => {
    const lines: string[] = [];
    const captured = createLogger('warn', 'test', { write: (line: string) => void lines.push(line) });
    const connection = await connectRedis(shared.server.url, logger);
    const store = new RedisOutcomeStatsStore(connection.client, { halfLifeMs: HALF_LIFE, timeoutMs: 500 });
    await store.record(outcome());
    const stats = new RankingStats(store, { refreshMs: 60_000, logger: captured });
    await stats.start();
    try {
      expect(stats.level('*')?.attempts).toBe(1);
      await connection.close();
      await expect(stats.refresh()).resolves.toBeUndefined();
      expect(stats.level('*')?.attempts).toBe(1);
      expect(lines.join('')).toContain('ranking: reading the outcome statistics failed');
    } finally {
      await stats.stop();
    }
  });
});
