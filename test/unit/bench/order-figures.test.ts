import { spawn } from 'node:child_process';
import { childPidsMatching } from '../../../bench/lib/order-children';
import { cpuDelta, cpuMsPerUnit, createOverFloorMs, ratio, roundRatios } from '../../../bench/lib/order-figures';

/** The arithmetic behind `npm run bench:orders`'s floor figures (bench/README.md). */
describe('createOverFloorMs', () => {
  it('is what the broker adds to an empty update-with-start and the provider call together', () => {
    // The starting point: 245 ms against a 30 ms floor and a 5 ms provider.
    expect(createOverFloorMs(245, 30, 5)).toBe(210);
    // At the target: one local-activity round trip on top of the floor and the provider.
    expect(createOverFloorMs(60, 30, 5)).toBe(25);
  });

  it('goes below zero when the broker beats the sum (the floor and the provider are measured apart)', () => {
    expect(createOverFloorMs(33, 30, 5)).toBe(-2);
  });

  it('is NaN, and so null in the JSON, when a part is missing', () => {
    expect(createOverFloorMs(245, NaN, 5)).toBeNaN();
    expect(JSON.stringify({ over: createOverFloorMs(NaN, 30, 5) })).toBe('{"over":null}');
  });
});

describe('cpuDelta and cpuMsPerUnit', () => {
  it('gives each process its CPU milliseconds per lifecycle over several runs together', () => {
    const round1 = cpuDelta({ api: 10, worker: 20 }, { api: 10.5, worker: 21.5 });
    const round2 = cpuDelta({ api: 11, worker: 22 }, { api: 11.7, worker: 23.5 });
    expect(round1.api).toBeCloseTo(0.5);
    // 1.2 s of API and 3 s of worker CPU over 2 × 150 lifecycles.
    const perLifecycle = cpuMsPerUnit([round1, round2], 300);
    expect(perLifecycle.api).toBeCloseTo(4);
    expect(perLifecycle.worker).toBeCloseTo(10);
  });

  it('leaves a process /proc could not read as NaN, not as a zero that looks like a measurement', () => {
    const delta = cpuDelta({ api: 1, temporal: NaN }, { api: 2, temporal: NaN });
    expect(delta.temporal).toBeNaN();
    expect(cpuMsPerUnit([delta], 10).temporal).toBeNaN();
    expect(cpuDelta({ api: 1 }, {}).api).toBeNaN();
  });

  it('is NaN with no lifecycles', () => {
    expect(cpuMsPerUnit([{ api: 1 }], 0).api).toBeNaN();
  });
});

describe('ratio', () => {
  it('divides, and is NaN rather than Infinity for a zero or missing divisor', () => {
    expect(ratio(26, 20)).toBeCloseTo(1.3);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(NaN, 2)).toBeNaN();
  });
});

const linux = process.platform === 'linux' ? describe : describe.skip;
linux('childPidsMatching', () => {
  it("finds this process's own child by a fragment of its command line, and nothing else", async () => {
    const marker = `bench-orders-marker-${process.pid}`;
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)', marker], { stdio: 'ignore' });
    try {
      await new Promise<void>((resolve) => child.once('spawn', () => resolve()));
      expect(childPidsMatching(marker)).toEqual([child.pid]);
      expect(childPidsMatching(`${marker}-absent`)).toEqual([]);
      // Only children of the given parent: the test's child is not pid 1's.
      expect(childPidsMatching(marker, 1)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('roundRatios', () => {
  it("takes the median of each round's ratio, so that a busy round slows both sides of its ratio", () => {
    // Round 2 ran while the machine was busy: both sides at half speed, its ratio unchanged.
    const broker = [10, 5, 10];
    const baseline = [20, 10, 10];
    const { ratios, median } = roundRatios(broker, baseline);
    expect(ratios).toEqual([0.5, 0.5, 1]);
    expect(median).toBe(0.5);
    // The ratio of the medians (10 / 10) would set one round's machine against another's.
    expect(median).not.toBe(10 / 10);
  });

  it('is NaN with no rounds or a missing side', () => {
    expect(roundRatios([], []).median).toBeNaN();
    expect(roundRatios([1], []).ratios).toEqual([NaN]);
  });
});
