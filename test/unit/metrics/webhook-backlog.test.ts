/**
 * The integrator webhook backlog stays bounded without scrapes: expired entries are dropped when a
 * failure is recorded, and the map never holds more than its cap (the oldest dropped first).
 */
import { WebhookBacklog } from '../../../src/metrics/webhook-backlog';

const size = (backlog: WebhookBacklog) => (backlog as unknown as { pending: Map<string, unknown> }).pending.size;

test('failed() drops entries whose next attempt is long overdue, with no scrape in between', () => {
  let now = 10_000_000;
  const backlog = new WebhookBacklog(() => now, 60_000);
  for (let i = 0; i < 100; i++) backlog.failed(`evt_old_${i}`, 'acme', now - 1000, now + 1000);
  expect(size(backlog)).toBe(100);
  now += 1000 + 60_001;
  backlog.failed('evt_new', 'acme', now - 1000, now + 1000);
  expect(size(backlog)).toBe(1);
  expect(backlog.oldestAges()).toEqual(new Map([['acme', 1]]));
});

test('the backlog holds at most its cap, dropping the oldest entries first', () => {
  const now = 10_000_000;
  const backlog = new WebhookBacklog(() => now, 60_000, 10);
  for (let i = 0; i < 25; i++) backlog.failed(`evt_${i}`, `integrator-${i}`, now - (100 - i) * 1000, now + 3_600_000);
  expect(size(backlog)).toBe(10);
  // The ten last recorded are kept: integrator-15 ... integrator-24.
  expect([...backlog.oldestAges().keys()].sort()).toEqual(Array.from({ length: 10 }, (_, i) => `integrator-${15 + i}`).sort());
  // A renewed entry counts as recorded now: it outlives the others.
  backlog.failed('evt_15', 'integrator-15', now - 85_000, now + 3_600_000);
  backlog.failed('evt_99', 'integrator-99', now - 1000, now + 3_600_000);
  expect(backlog.oldestAges().has('integrator-15')).toBe(true);
  expect(backlog.oldestAges().has('integrator-16')).toBe(false);
});

test('the default cap is 10 000 entries', () => {
  const now = 10_000_000;
  const backlog = new WebhookBacklog(() => now);
  for (let i = 0; i < 10_500; i++) backlog.failed(`evt_${i}`, 'acme', now - 1000, now + 3_600_000);
  expect(size(backlog)).toBe(10_000);
});
