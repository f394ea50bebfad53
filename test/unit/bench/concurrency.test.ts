import { runFor } from '../../../bench/lib/concurrency';

/** The time-driven rounds of `npm run bench:orders` (bench/README.md). */
describe('runFor', () => {
  it('starts tasks until its time is up, lets those in flight finish, and counts them all', async () => {
    let started = 0;
    const run = await runFor(0.1, 3, async () => {
      started++;
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(run.count).toBe(started);
    expect(run.latenciesMs).toHaveLength(started);
    expect(run.count).toBeGreaterThanOrEqual(3);
    expect(run.seconds).toBeGreaterThanOrEqual(0.1);
  });
});
