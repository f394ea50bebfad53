/**
 * Issue 33's outcome statistics through the real API, workflows and sandbox simulator: settled
 * orders are recorded by the worker and refused creations by the API, offers carry a `ranking`
 * built from them (with the returning-customer boost for a customer who completed before), and an
 * empty store (a new process, a flushed Redis) is rebuilt from Temporal to the same counters.
 * Statistics are per integrator: another integrator with no orders of its own sees none of the
 * first one's counts, only an estimate that leans on all integrators' orders.
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../src/config/integrators';
import { createLogger } from '../../src/logging';
import type { LevelCounters } from '../../src/ranking/decay';
import { Ranking } from '../../src/ranking/ranking';
import { callApi, eventually } from '../helpers/http';
import { checkout, draftOrder, offersQuery, offerThenOrder, waitForStatus, type OrderDraft } from '../helpers/orders';
import { useSharedRedis } from '../helpers/redis';
import { testConfig } from '../helpers/config';
import { useTestStack } from '../helpers/stack';

const DAY = 86_400_000;
const OTHER_KEY = 'obk_test_ranking_other_0000000000000000000';
const started = useTestStack({
  config: {
    ranking: { halfLifeMs: 7 * DAY, priorWeight: 2, returningBoost: 0.5, refreshMs: 100 },
    integrators: [...testConfig().integrators, { id: 'other', name: 'Other', api_key_sha256: [sha256Hex(OTHER_KEY)] }],
  },
});
const redis = useSharedRedis();
const logger = createLogger('silent', 'test');

const LEVEL = 'sandbox|GB|card';
const returningUser = `user-${randomUUID()}`;

async function settle(draft: OrderDraft, action: 'pay' | 'fail'): Promise<void> {
  const created = await offerThenOrder(started.stack.apiUrl, draft);
  expect(created.status).toBe(200);
  expect((await checkout(created.body.redirect_url as string, action)).status).toBe(200);
  await waitForStatus(started.stack.apiUrl, 'sandbox', created.body.id as string, action === 'pay' ? 'complete' : 'failed');
}

const level = async (ranking: Ranking, key = LEVEL) => (await ranking.store.snapshot()).levels.get(key);
const devId = () => started.stack.config.integrators[0]!.id;
const ownLevel = async (ranking: Ranking, key = LEVEL) => (await ranking.store.snapshot()).integrators.get(devId())?.get(key);

function expectSameCounts(actual: LevelCounters | undefined, expected: LevelCounters | undefined): void {
  expect(actual).toBeDefined();
  for (const name of ['attempts', 'completed', 'refused', 'timed'] as const) expect(actual![name]).toBeCloseTo(expected![name], 6);
  expect(actual!.completeMsSum).toBeCloseTo(expected!.completeMsSum, 0);
}

async function sandboxOffer(draft: OrderDraft, extra = '', apiKey?: string) {
  const res = await callApi(started.stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draft)}${extra}`, { apiKey });
  expect(res.status).toBe(200);
  return res.body.sandbox as {
    amount_expected_to: string;
    ranking?: { score: string; rank: number; completion_rate: number; samples: number; reasons: string[]; recommended: boolean };
  };
}

beforeAll(async () => {
  await settle(draftOrder({ external_user_id: returningUser }), 'pay');
  await settle(draftOrder(), 'pay');
  await settle(draftOrder(), 'pay');
  await settle(draftOrder(), 'fail');
  started.stack.simulator.faults.createRejectRate = 1;
  const refused = await offerThenOrder(started.stack.apiUrl, draftOrder());
  started.stack.simulator.faults.createRejectRate = 0;
  expect(refused.body.code).toBe('provider_rejected');
}, 120_000);

test('each settled order and each refused creation is counted once, at every level', async () => {
  const counters = await eventually(async () => {
    const found = await level(started.stack.ranking);
    return found && found.attempts > 4.99 ? found : undefined;
  }, 'five outcomes recorded');
  expect(counters.attempts).toBeCloseTo(5, 3);
  expect(counters.completed).toBeCloseTo(3, 3);
  expect(counters.refused).toBeCloseTo(1, 3);
  expect(counters.timed).toBeCloseTo(3, 3);
  expectSameCounts(await level(started.stack.ranking, 'sandbox'), counters);
  // Each also under its integrator, the refused creation included; the other integrator has none.
  expectSameCounts(await ownLevel(started.stack.ranking), counters);
  expect((await started.stack.ranking.store.snapshot()).integrators.has('other')).toBe(false);
});

test('offers carry their ranking; a returning customer gets the boost; ranking=off leaves it out', async () => {
  await started.stack.ranking.stats.refresh();
  const all = await callApi(started.stack.apiUrl, `/api/on_ramp/offers?${offersQuery(draftOrder())}`);
  const ranks = Object.values(all.body as Record<string, { ranking: { rank: number; recommended: boolean; samples: number } }>);
  expect(ranks.length).toBeGreaterThan(1);
  // Highest rank first, one recommended; providers with no orders rank at the prior (0.8), above sandbox's record.
  expect(ranks.map((o) => o.ranking.rank)).toEqual(ranks.map((_, i) => i + 1));
  expect(ranks.map((o) => o.ranking.recommended)).toEqual(ranks.map((_, i) => i === 0));
  expect(ranks.filter((o) => o.ranking.samples === 0).length).toBe(ranks.length - 1);

  const fresh = await sandboxOffer(draftOrder(), '&provider_codes=sandbox');
  expect(fresh.ranking).toMatchObject({ rank: 1, recommended: true, samples: 5 });
  // 3 of 4 created orders completed, 1 of 5 refused, smoothed toward the priors with K = 2.
  expect(fresh.ranking!.completion_rate).toBeGreaterThan(0.5);
  expect(fresh.ranking!.completion_rate).toBeLessThan(0.8);
  expect(fresh.ranking!.reasons.join(' ')).not.toMatch(/bought with this provider before/);

  const returning = await sandboxOffer(draftOrder({ external_user_id: returningUser }), '&provider_codes=sandbox');
  expect(returning.ranking!.reasons).toContain('you bought with this provider before');
  expect(returning.ranking!.completion_rate).toBe(fresh.ranking!.completion_rate);
  expect(Number(returning.ranking!.score)).toBeGreaterThan(Number(fresh.ranking!.score));

  const off = await sandboxOffer(draftOrder({ external_user_id: returningUser }), '&ranking=off');
  expect(off).not.toHaveProperty('ranking');
  expect(off.amount_expected_to).toBe(returning.amount_expected_to);
});

test("another integrator sees none of the first one's counts: its own samples, reasons without them", async () => {
  await started.stack.ranking.stats.refresh();
  const own = await sandboxOffer(draftOrder(), '&provider_codes=sandbox');
  const other = await sandboxOffer(draftOrder(), '&provider_codes=sandbox', OTHER_KEY);
  expect(own.ranking!.samples).toBe(5);
  expect(other.ranking!.samples).toBe(0);
  const text = other.ranking!.reasons.join(' ');
  expect(text).not.toMatch(/\d+ (card )?orders?\b/);
  expect(text).toMatch(/no card orders in GB yet/);
  // With no orders of its own, its estimate leans on all integrators' orders, not on the fixed prior (0.95 x 0.8).
  expect(other.ranking!.completion_rate).toBeLessThan(0.75);
});

test('a deleted customer is no longer a returning one', async () => {
  const res = await callApi(started.stack.apiUrl, `/api/on_ramp/customers/${returningUser}`, { method: 'DELETE' });
  expect(res.status).toBe(204);
  const after = await sandboxOffer(draftOrder({ external_user_id: returningUser }));
  expect(after.ranking!.reasons).not.toContain('you bought with this provider before');
});

test('an empty Redis (flushed, or a new deployment) is rebuilt from Temporal to the counters recorded live', async () => {
  const live = await level(started.stack.ranking);
  await redis.first.client.flushAll();
  const rebuilt = new Ranking(started.stack.config, { redis: redis.first.client, logger });
  try {
    rebuilt.start(started.stack.client);
    const counters = await eventually(async () => {
      const found = await level(rebuilt);
      return found && found.attempts > 4.99 ? found : undefined;
    }, 'the rebuild to fold five outcomes');
    expectSameCounts(counters, live);
    // The integrator of each is restored: a settled order's from its memo, a refused creation's from its search attribute.
    expectSameCounts(await ownLevel(rebuilt), live);
    await expect(rebuilt.store.getCursor()).resolves.toBeDefined();
    // Returning customers are not brought back: a deleted one's tombstone went with the flush.
    await expect(rebuilt.customers.providersOf(started.stack.config.integrators[0]!.id, returningUser)).resolves.toEqual(new Set());
    // A second process on the same Redis finds it built and folds nothing twice.
    const second = new Ranking(started.stack.config, { redis: redis.second.client, logger });
    second.start(started.stack.client);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await second.stop();
    expectSameCounts(await level(second), live);
  } finally {
    await rebuilt.stop();
  }
}, 60_000);
