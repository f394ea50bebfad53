import { AdaptiveDeadline } from '../../../src/offers/deadline';

const settings = { maxMs: 3000, floorMs: 100, multiplier: 2, window: 100, minSamples: 20 };

function fed(latencies: number[], options: Partial<typeof settings> = {}): AdaptiveDeadline {
  const deadline = new AdaptiveDeadline({ ...settings, ...options });
  for (const ms of latencies) deadline.record(ms);
  return deadline;
}

const repeat = (ms: number, n: number) => Array.from({ length: n }, () => ms);

describe('AdaptiveDeadline', () => {
  test('with no history, or less than minSamples answers, the deadline is the maximum', () => {
    expect(fed([]).deadlineMs()).toBe(3000);
    expect(fed(repeat(100, 19)).deadlineMs()).toBe(3000);
    expect(fed(repeat(100, 19)).p99()).toBeUndefined();
  });

  test('from minSamples answers on, it is the multiple of the p99', () => {
    const deadline = fed(repeat(100, 20));
    expect(deadline.p99()).toBe(100);
    expect(deadline.deadlineMs()).toBe(200);
  });

  test('the p99 is the nearest rank: one outlier in a hundred does not move it, two do', () => {
    // 99 answers at 100 ms and one at 2000 ms: the 99th of 100 is 100.
    expect(fed([...repeat(100, 99), 2000]).p99()).toBe(100);
    expect(fed([...repeat(100, 98), 2000, 2000]).p99()).toBe(2000);
    // Order does not matter.
    expect(fed([2000, ...repeat(100, 99)]).p99()).toBe(100);
  });

  test('the deadline stays within the floor and the maximum', () => {
    expect(fed(repeat(5, 50)).deadlineMs()).toBe(100);
    expect(fed(repeat(2000, 50)).deadlineMs()).toBe(3000);
    expect(fed(repeat(120.4, 50)).deadlineMs()).toBe(241);
  });

  test('only the latest `window` answers count: a provider that turned faster gets a shorter deadline', () => {
    const deadline = fed(repeat(1000, 100));
    expect(deadline.deadlineMs()).toBe(2000);
    for (let i = 0; i < 99; i++) deadline.record(100);
    // One 1000 ms answer is left in the window of 100: still the p99.
    expect(deadline.p99()).toBe(100);
    expect(deadline.deadlineMs()).toBe(200);
  });

  test('a provider that turns slow has a deadline of a small multiple of its usual latency, not the maximum', () => {
    const deadline = fed(repeat(100, 200));
    // Its next calls never answer: nothing is recorded, and the deadline stays at twice its usual latency.
    expect(deadline.deadlineMs()).toBe(200);
    expect(deadline.deadlineMs()).toBe(200);
  });

  test('the deadline is worked out again every few answers, not on every call', () => {
    const deadline = fed(repeat(100, 20));
    expect(deadline.deadlineMs()).toBe(200);
    for (let i = 0; i < 7; i++) deadline.record(1000);
    expect(deadline.deadlineMs()).toBe(200);
    deadline.record(1000);
    expect(deadline.deadlineMs()).toBe(2000);
  });

  test('reset forgets every answer: the maximum again until minSamples new ones', () => {
    const deadline = fed(repeat(100, 50));
    expect(deadline.deadlineMs()).toBe(200);
    deadline.reset();
    expect(deadline.deadlineMs()).toBe(3000);
    for (let i = 0; i < 19; i++) deadline.record(400);
    expect(deadline.deadlineMs()).toBe(3000);
    deadline.record(400);
    expect(deadline.deadlineMs()).toBe(800);
  });

  test('a latency that is not a finite non-negative number is ignored', () => {
    const deadline = fed([...repeat(100, 19), NaN, -1, Number.POSITIVE_INFINITY]);
    expect(deadline.deadlineMs()).toBe(3000);
  });

  test('minSamples above the window is the window', () => {
    expect(fed(repeat(100, 10), { window: 10, minSamples: 50 }).deadlineMs()).toBe(200);
  });

  test('settings out of range are refused', () => {
    expect(() => new AdaptiveDeadline({ ...settings, floorMs: 4000 })).toThrow(RangeError);
    expect(() => new AdaptiveDeadline({ ...settings, multiplier: 0 })).toThrow(RangeError);
    expect(() => new AdaptiveDeadline({ ...settings, window: 0 })).toThrow(RangeError);
    expect(() => new AdaptiveDeadline({ ...settings, floorMs: 0 })).toThrow(RangeError);
  });
});
