import { LRUCache } from 'lru-cache';

/**
 * An LRU cache of at most `entries` entries whose storage grows as entries come. lru-cache given
 * `max` allocates its lists for `max` entries when it is built (some 27 bytes an entry, 43 with a
 * ttl: 2.7 to 4.3 MB for 100,000), memory the process holds from its start whether or not the cache
 * ever fills. Bounded by `maxSize` with every entry weighing 1 instead, it allocates nothing ahead,
 * at a small cost per operation and, once full, some 2-3.5 MB more per 100,000 entries (its lists
 * are then plain arrays, not typed ones): for caches off the offers path that rarely fill.
 */
export function growingLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  entries: number,
  options: Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'> = {},
): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: entries, sizeCalculation: () => 1 });
}
