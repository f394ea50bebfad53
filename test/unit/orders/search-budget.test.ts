import { SearchBudget } from '../../../src/orders/search-budget';

function budget(perSecond: number, burst: number) {
  let now = 1_000_000;
  const b = new SearchBudget({ perSecond, burst, now: () => now });
  return { b, advance: (ms: number) => (now += ms) };
}

test('a page starts while a call is left, and may spend past zero', () => {
  const { b } = budget(2, 10);
  expect(b.waitSeconds('a')).toBe(0);
  b.spend('a', 9);
  expect(b.waitSeconds('a')).toBe(0);
  b.spend('a', 9);
  // -8: 9 calls short of one, at 2 a second.
  expect(b.waitSeconds('a')).toBe(5);
});

test('the bucket refills at its rate, never beyond its burst', () => {
  const { b, advance } = budget(2, 10);
  b.spend('a', 12);
  expect(b.waitSeconds('a')).toBe(2);
  advance(1_000);
  expect(b.waitSeconds('a')).toBe(1);
  advance(1_000);
  expect(b.waitSeconds('a')).toBe(0);
  advance(3_600_000);
  b.spend('a', 10);
  expect(b.waitSeconds('a')).toBe(1);
});

test('integrators have buckets of their own', () => {
  const { b } = budget(1, 5);
  b.spend('a', 20);
  expect(b.waitSeconds('a')).toBe(16);
  expect(b.waitSeconds('b')).toBe(0);
});

test('a full bucket is forgotten (the map holds only recent searchers)', () => {
  const { b, advance } = budget(1, 5);
  b.spend('a', 3);
  const buckets = (b as unknown as { buckets: Map<string, unknown> }).buckets;
  expect(buckets.size).toBe(1);
  advance(3_000);
  expect(b.waitSeconds('a')).toBe(0);
  expect(buckets.size).toBe(0);
});

test('over a long run, calls average out at the rate', () => {
  const { b, advance } = budget(5, 30);
  let calls = 0;
  for (let ms = 0; ms < 600_000; ms += 50) {
    if (b.waitSeconds('a') === 0) {
      b.spend('a', 7);
      calls += 7;
    }
    advance(50);
  }
  // 10 minutes at 5 a second, plus the first burst and one page's overshoot.
  expect(calls).toBeLessThanOrEqual(600 * 5 + 30 + 7);
  expect(calls).toBeGreaterThanOrEqual(600 * 5 - 7);
});
