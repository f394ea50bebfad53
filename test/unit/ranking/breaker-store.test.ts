/**
 * The breaker stores held to the pure state machine: the same steps through the memory store and
 * through the Redis store's Lua give the same records, transitions and verdicts. Then what only a
 * shared store does: two API processes (two connections, two stores) move one breaker, a process's
 * local view follows the other's steps, and nothing is kept for ever.
 */
import { randomUUID } from 'node:crypto';
import { MemoryBreakerStore, type BreakerStore } from '../../../src/ranking/breaker-store';
import { RedisBreakerStore } from '../../../src/ranking/breaker-redis-store';
import {
  admit,
  CLOSED,
  settle,
  type BreakerRecord,
  type BreakerSettings,
  type CreationResult,
} from '../../../src/ranking/provider-breaker';
import { ProviderBreakers } from '../../../src/ranking/provider-breakers';
import { registry } from '../../../src/metrics/registry';
import { useSharedRedis } from '../../helpers/redis';

// A failure rate that three failures among six do not reach: the walk opens by failures in a row.
const SETTINGS: BreakerSettings = { failures: 3, failureRate: 0.6, window: 6, openMs: 1000, probes: 2, probeLeaseMs: 500 };

const redis = useSharedRedis();

type Op = { at: number } & ({ admit: string } | { settle: CreationResult; probe?: string });

/** A walk through every state: closed (a window that slides), open, half-open with two probes, a lease running out, open again, closed. */
const SCRIPT: Op[] = [
  { at: 0, settle: 'success' },
  { at: 1, settle: 'failure' },
  { at: 2, settle: 'ignored' },
  { at: 3, settle: 'failure' },
  { at: 4, admit: 'x' },
  { at: 5, settle: 'success' },
  { at: 6, settle: 'success' },
  { at: 7, settle: 'success' },
  { at: 8, settle: 'success' },
  { at: 9, settle: 'failure' },
  { at: 10, settle: 'failure' },
  { at: 11, settle: 'failure' },
  { at: 12, admit: 'refused' },
  { at: 13, settle: 'failure' },
  { at: 1011, admit: 'a' },
  { at: 1012, admit: 'b' },
  { at: 1013, admit: 'c' },
  { at: 1014, settle: 'success' },
  { at: 1015, settle: 'ignored', probe: 'a' },
  { at: 1016, admit: 'd' },
  { at: 1600, admit: 'e' },
  { at: 1601, settle: 'failure', probe: 'b' },
  { at: 1602, settle: 'failure', probe: 'e' },
  { at: 2601, settle: 'success', probe: 'e' },
  { at: 2602, admit: 'f' },
  { at: 2603, settle: 'success', probe: 'f' },
  { at: 2604, settle: 'failure' },
];

/** Every step's outcome by the pure functions. */
function expected(): unknown[] {
  let record: BreakerRecord = CLOSED;
  return SCRIPT.map((op) => {
    const step = 'admit' in op ? admit(record, op.at, op.admit, SETTINGS) : settle(record, op.at, op.settle, op.probe, SETTINGS);
    record = step.record;
    return step;
  });
}

async function through(store: BreakerStore, provider: string): Promise<unknown[]> {
  const steps: unknown[] = [];
  for (const op of SCRIPT) {
    steps.push('admit' in op ? await store.admit(provider, op.at, op.admit) : await store.settle(provider, op.at, op.settle, op.probe));
  }
  return steps;
}

test('the walk itself goes through every state and verdict', () => {
  const steps = expected() as { record: BreakerRecord; result?: { admitted: boolean; probe?: boolean } }[];
  expect(new Set(steps.map((s) => s.record.state))).toEqual(new Set(['closed', 'open', 'half_open']));
  expect(steps.some((s) => s.result?.admitted === false)).toBe(true);
  expect(steps.some((s) => s.result?.probe === true)).toBe(true);
});

test('the memory store takes the pure steps', async () => {
  expect(await through(new MemoryBreakerStore(SETTINGS), 'sandbox')).toEqual(expected());
});

test("the Redis store's script takes the same steps", async () => {
  expect(await through(new RedisBreakerStore(redis.first.client, SETTINGS, { prefix: `t:${randomUUID()}:` }), 'sandbox')).toEqual(
    expected(),
  );
});

test('read gives each provider its record, closed for one never seen', async () => {
  for (const store of [
    new MemoryBreakerStore(SETTINGS),
    new RedisBreakerStore(redis.first.client, SETTINGS, { prefix: `t:${randomUUID()}:` }),
  ]) {
    for (let i = 0; i < 3; i++) await store.settle('banxa', i, 'failure', undefined);
    await store.settle('ramp', 0, 'success', undefined);
    expect(await store.read(['banxa', 'ramp', 'moonpay'])).toEqual(
      new Map<string, BreakerRecord>([
        ['banxa', { state: 'open', until: 1002 }],
        ['ramp', { state: 'closed', window: '0' }],
        ['moonpay', CLOSED],
      ]),
    );
  }
});

describe('shared by two API processes', () => {
  test('failures seen by two processes open one breaker, and only one of them gets the probe', async () => {
    const prefix = `t:${randomUUID()}:`;
    const a = new RedisBreakerStore(redis.first.client, SETTINGS, { prefix });
    const b = new RedisBreakerStore(redis.second.client, { ...SETTINGS, probes: 1 }, { prefix });
    await a.settle('sandbox', 0, 'failure', undefined);
    await b.settle('sandbox', 1, 'failure', undefined);
    const opening = await a.settle('sandbox', 2, 'failure', undefined);
    expect(opening.transitions).toEqual([{ from: 'closed', to: 'open' }]);
    expect((await b.admit('sandbox', 500, 'x')).result).toEqual({ admitted: false, state: 'open', retryAt: 1002 });
    // Both ask for a probe at once: the script lets one through.
    const [first, second] = await Promise.all([b.admit('sandbox', 1002, 'p1'), b.admit('sandbox', 1002, 'p2')]);
    expect([first.result.admitted, second.result.admitted].sort()).toEqual([false, true]);
    const probe = first.result.admitted ? 'p1' : 'p2';
    expect((await a.settle('sandbox', 1100, 'success', probe)).record).toEqual(CLOSED);
  });

  test("each process's local view follows the other's steps within a refresh, and its own at once", async () => {
    const prefix = `t:${randomUUID()}:`;
    let now = 10_000;
    const settings = { ...SETTINGS, probes: 1 };
    const breakers = (client: typeof redis.first.client) =>
      new ProviderBreakers({
        store: new RedisBreakerStore(client, settings, { prefix }),
        settings,
        providers: ['sandbox', 'banxa'],
        now: () => now,
      });
    const a = breakers(redis.first.client);
    const b = breakers(redis.second.client);
    for (let i = 0; i < 3; i++) await a.settle('sandbox', { admitted: true }, 'failure');
    expect(a.openUntil('sandbox')).toBe(11_000);
    // B has not read the store since: it still sees the provider closed, and admits from its view.
    expect(b.openUntil('sandbox')).toBeUndefined();
    await b.refresh();
    expect(b.openUntil('sandbox')).toBe(11_000);
    expect(await b.admit('sandbox')).toEqual({ admitted: false, state: 'open', retryAt: 11_000 });
    expect(b.openUntil('banxa')).toBeUndefined();
    const gauge = async () =>
      (await registry.getSingleMetric('onramp_provider_breaker_state')!.get()).values.find((v) => v.labels.provider === 'sandbox')?.value;
    expect(await gauge()).toBe(2);

    now = 11_000;
    expect(b.openUntil('sandbox')).toBeUndefined();
    const probe = await b.admit('sandbox');
    expect(probe).toEqual({ admitted: true, probeId: expect.any(String) });
    // The probe is counted in the store: A, half-open in its view too, is refused.
    expect(await a.admit('sandbox')).toEqual({ admitted: false, state: 'half_open', retryAt: 11_500 });
    await b.settle('sandbox', probe, 'success');
    expect(await a.admit('sandbox')).toEqual({ admitted: true });
    await a.refresh();
    expect(await gauge()).toBe(0);
  });

  test('a store that cannot be reached leaves the view to decide alone', async () => {
    const dead: BreakerStore = {
      admit: () => Promise.reject(new Error('down')),
      settle: () => Promise.reject(new Error('down')),
      read: () => Promise.reject(new Error('down')),
    };
    let now = 0;
    const breakers = new ProviderBreakers({ store: dead, settings: { ...SETTINGS, probes: 1 }, providers: ['sandbox'], now: () => now });
    for (let i = 0; i < 3; i++) await breakers.settle('sandbox', { admitted: true }, 'failure');
    await breakers.refresh();
    expect(breakers.openUntil('sandbox')).toBe(1000);
    now = 1000;
    const probe = await breakers.admit('sandbox');
    expect(probe).toMatchObject({ admitted: true, probeId: expect.any(String) });
    expect((await breakers.admit('sandbox')).admitted).toBe(false);
    await breakers.settle('sandbox', probe, 'success');
    expect(await breakers.admit('sandbox')).toEqual({ admitted: true });
  });
});

test('every breaker key expires: nothing is kept for ever', async () => {
  const prefix = `t:${randomUUID()}:`;
  const store = new RedisBreakerStore(redis.first.client, SETTINGS, { prefix });
  await store.settle('sandbox', 0, 'success', undefined);
  await store.settle('banxa', 0, 'failure', undefined);
  await store.admit('ramp', 0, 'p');
  const keys = await redis.first.client.keys(`${prefix}*`);
  expect(keys.sort()).toEqual([`${prefix}banxa`, `${prefix}ramp`, `${prefix}sandbox`]);
  for (const key of keys) {
    const ttl = await redis.first.client.pTTL(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
  }
});
