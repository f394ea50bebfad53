import { growingLru } from '../../src/lru';

describe('growingLru', () => {
  it('keeps at most its number of entries, forgetting the least recently used first', () => {
    const cache = growingLru<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    expect(cache.get('a')).toBe(0); // a is now the most recent
    cache.set('d', 3);
    cache.set('e', 4);
    expect(cache.size).toBe(3);
    expect([...cache.keys()].sort()).toEqual(['a', 'd', 'e']);
  });

  it('passes its other options on (a ttl here)', () => {
    let now = 1_000;
    const cache = growingLru<string, true>(10, { ttl: 100, ttlResolution: 0, perf: { now: () => now } });
    cache.set('k', true);
    now += 99;
    expect(cache.has('k')).toBe(true);
    now += 2;
    expect(cache.has('k')).toBe(false);
  });

  it('is bounded by maxSize, not max, for which lru-cache allocates its storage when built', () => {
    // lru-cache's README, "Storage Bounds Safety": "At initial object creation, storage is allocated for `max` items."
    const cache = growingLru<string, true>(1_000_000, { ttl: 60_000 });
    expect(cache.max).toBe(0);
    expect(cache.maxSize).toBe(1_000_000);
  });
});
