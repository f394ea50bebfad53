/**
 * MemoryCounts counts as express-rate-limit's MemoryStore does, which it replaces: the same
 * sequence of hits over time gives the same counts and window ends from both.
 */
import { MemoryStore } from 'express-rate-limit';
import { MemoryCounts } from '../../../src/api/memory-counts';

const WINDOW_MS = 10_000;

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-29T10:00:00Z') }));
afterEach(() => jest.useRealTimers());

function both() {
  const ours = new MemoryCounts();
  const theirs = new MemoryStore();
  ours.init({ windowMs: WINDOW_MS });
  theirs.init({ windowMs: WINDOW_MS } as never);
  return { ours, theirs };
}

/** Steps of a scenario: a hit of a key, a wait, a decrement, a reset. */
type Step = ['hit', string] | ['wait', number] | ['decrement', string] | ['reset', string];

const scenarios: [string, Step[]][] = [
  [
    'hits within a window',
    [
      ['hit', 'a'],
      ['hit', 'a'],
      ['hit', 'b'],
      ['hit', 'a'],
    ],
  ],
  [
    'a window that ends',
    [
      ['hit', 'a'],
      ['wait', 4000],
      ['hit', 'a'],
      ['wait', 6000],
      ['hit', 'a'],
      ['hit', 'a'],
    ],
  ],
  [
    'a key quiet for two sweeps is dropped',
    [
      ['hit', 'a'],
      ['wait', 25_000],
      ['hit', 'a'],
    ],
  ],
  [
    'a key seen after one sweep keeps its window',
    [
      ['wait', 9000],
      ['hit', 'a'],
      ['wait', 2000],
      ['hit', 'a'],
      ['wait', 7000],
      ['hit', 'a'],
      ['wait', 1500],
      ['hit', 'a'],
    ],
  ],
  [
    'decrement and reset',
    [
      ['hit', 'a'],
      ['hit', 'a'],
      ['decrement', 'a'],
      ['hit', 'a'],
      ['reset', 'a'],
      ['hit', 'a'],
      ['decrement', 'b'],
      ['hit', 'b'],
    ],
  ],
];

test.each(scenarios)('%s: the same counts as MemoryStore', async (_name, steps) => {
  const { ours, theirs } = both();
  for (const step of steps) {
    if (step[0] === 'wait') {
      jest.advanceTimersByTime(step[1]);
    } else if (step[0] === 'hit') {
      const mine = ours.hit(step[1]);
      const reference = await theirs.increment(step[1]);
      expect({ hits: mine.totalHits, reset: mine.resetTime?.getTime() }).toEqual({
        hits: reference.totalHits,
        reset: reference.resetTime?.getTime(),
      });
      expect(await ours.get(step[1])).toEqual(await theirs.get(step[1]));
    } else if (step[0] === 'decrement') {
      await ours.decrement(step[1]);
      await theirs.decrement(step[1]);
    } else {
      await ours.resetKey(step[1]);
      await theirs.resetKey(step[1]);
    }
  }
  ours.shutdown();
  theirs.shutdown();
});

test('increment answers what hit would, as a promise', async () => {
  const { ours } = both();
  expect((await ours.increment('k')).totalHits).toBe(1);
  expect(ours.hit('k').totalHits).toBe(2);
  ours.shutdown();
});
