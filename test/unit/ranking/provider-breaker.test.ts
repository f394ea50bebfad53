import {
  admit,
  CLOSED,
  current,
  settle,
  type BreakerRecord,
  type BreakerSettings,
  type CreationResult,
} from '../../../src/ranking/provider-breaker';

const SETTINGS: BreakerSettings = { failures: 5, failureRate: 0.5, window: 20, openMs: 30_000, probes: 1, probeLeaseMs: 10_000 };

/** The record after these outcomes, one per ms from `start`, none of them a probe's. */
function after(results: CreationResult[], settings = SETTINGS, start = 0, record: BreakerRecord = CLOSED): BreakerRecord {
  return results.reduce((r, result, i) => settle(r, start + i, result, undefined, settings).record, record);
}

const fails = (n: number): CreationResult[] => Array<CreationResult>(n).fill('failure');
const successes = (n: number): CreationResult[] => Array<CreationResult>(n).fill('success');

describe('closed', () => {
  test('stays closed below the minimum of failures, however high their share', () => {
    expect(after(fails(4))).toEqual({ state: 'closed', window: '1111' });
  });

  test('opens at the minimum of failures when they are at least the failure rate of the window', () => {
    const step = settle(after(fails(4)), 100, 'failure', undefined, SETTINGS);
    expect(step.record).toEqual({ state: 'open', until: 100 + SETTINGS.openMs });
    expect(step.transitions).toEqual([{ from: 'closed', to: 'open' }]);
  });

  test('does not open while failures are under the failure rate of the window and not in a row', () => {
    // 5 failures among 11, the last five not all failed: 45 % < 50 %.
    const mixed: CreationResult[] = [...successes(5), 'failure', 'failure', 'success', 'failure', 'failure', 'failure'];
    expect(after(mixed).state).toBe('closed');
    // One more failure: 6 among 12, exactly 50 %, opens.
    expect(after([...mixed, 'failure']).state).toBe('open');
  });

  test('opens at the minimum of failures in a row, however healthy the window was before', () => {
    // A provider that goes down after a healthy spell: 4 failures in a row among 20 leave it closed, the 5th opens it.
    expect(after([...successes(16), ...fails(4)])).toEqual({ state: 'closed', window: `${'0'.repeat(16)}1111` });
    expect(after([...successes(16), ...fails(5)]).state).toBe('open');
    expect(after([...successes(100), ...fails(5)]).state).toBe('open');
  });

  test('the window holds only the last creations: old failures leave it', () => {
    const record = after([...fails(4), ...successes(20)]);
    expect(record).toEqual({ state: 'closed', window: '0'.repeat(20) });
    // Four fresh failures are not enough, four old ones having left.
    expect(after(fails(4), SETTINGS, 100, record).state).toBe('closed');
  });

  test('the share is of the window, not of every creation seen', () => {
    const small = { ...SETTINGS, window: 6, failures: 3 };
    // Many successes long ago do not dilute failures now: 3 failures in the last 6 creations open.
    expect(after([...successes(50), ...successes(3), ...fails(3)], small).state).toBe('open');
  });

  test('ignored outcomes (the customer`s fault, our own errors) leave the window alone', () => {
    const step = settle(after(fails(4)), 10, 'ignored', undefined, SETTINGS);
    expect(step.record).toEqual({ state: 'closed', window: '1111' });
    expect(step.transitions).toEqual([]);
  });

  test('failures 0 never opens', () => {
    expect(after(fails(50), { ...SETTINGS, failures: 0 }).state).toBe('closed');
  });

  test('a failure rate of 1 needs every creation of the window failed', () => {
    const strict = { ...SETTINGS, failureRate: 1 };
    const mostlyFailed: CreationResult[] = [...fails(4), 'success', ...fails(4), 'success', ...fails(4)];
    expect(after(mostlyFailed, strict).state).toBe('closed');
    expect(after(fails(5), strict).state).toBe('open');
  });

  test('admits every order, none as a probe', () => {
    expect(admit(after(fails(4)), 0, 'p', SETTINGS)).toEqual({
      record: { state: 'closed', window: '1111' },
      transitions: [],
      result: { admitted: true, probe: false },
    });
  });
});

describe('open', () => {
  const open: BreakerRecord = { state: 'open', until: 30_000 };

  test('refuses orders until its time is over, naming when', () => {
    expect(admit(open, 29_999, 'p', SETTINGS).result).toEqual({ admitted: false, state: 'open', retryAt: 30_000 });
  });

  test('ignores every outcome (creations that began before it opened)', () => {
    for (const result of ['success', 'failure', 'ignored'] as const) {
      expect(settle(open, 1000, result, undefined, SETTINGS)).toEqual({ record: open, transitions: [], result: undefined });
      expect(settle(open, 1000, result, 'p', SETTINGS).record).toEqual(open);
    }
  });

  test('is half-open with no probe once its time is over', () => {
    expect(current(open, 29_999)).toBe(open);
    expect(current(open, 30_000)).toEqual({ state: 'half_open', probes: {} });
  });
});

describe('half-open', () => {
  const open: BreakerRecord = { state: 'open', until: 30_000 };

  test('lets one order through as a probe and refuses the next while it is in flight', () => {
    const first = admit(open, 30_000, 'a', SETTINGS);
    expect(first.result).toEqual({ admitted: true, probe: true });
    expect(first.transitions).toEqual([{ from: 'open', to: 'half_open' }]);
    expect(first.record).toEqual({ state: 'half_open', probes: { a: 40_000 } });
    const second = admit(first.record, 31_000, 'b', SETTINGS);
    expect(second.result).toEqual({ admitted: false, state: 'half_open', retryAt: 40_000 });
    expect(second.transitions).toEqual([]);
  });

  test('lets as many probes through at a time as the setting says', () => {
    const three = { ...SETTINGS, probes: 3 };
    let record: BreakerRecord = open;
    for (const id of ['a', 'b', 'c']) {
      const step = admit(record, 30_000 + id.charCodeAt(0), id, three);
      expect(step.result).toEqual({ admitted: true, probe: true });
      record = step.record;
    }
    expect(admit(record, 30_500, 'd', three).result).toEqual({ admitted: false, state: 'half_open', retryAt: 40_097 });
  });

  test("a probe's success closes it with an empty window", () => {
    const probing = admit(open, 30_000, 'a', SETTINGS).record;
    const step = settle(probing, 31_000, 'success', 'a', SETTINGS);
    expect(step.record).toEqual(CLOSED);
    expect(step.transitions).toEqual([{ from: 'half_open', to: 'closed' }]);
  });

  test("a probe's failure opens it again for the whole open time", () => {
    const probing = admit(open, 30_000, 'a', SETTINGS).record;
    const step = settle(probing, 31_000, 'failure', 'a', SETTINGS);
    expect(step.record).toEqual({ state: 'open', until: 61_000 });
    expect(step.transitions).toEqual([{ from: 'half_open', to: 'open' }]);
  });

  test('an ignored probe frees its place without a verdict', () => {
    const probing = admit(open, 30_000, 'a', SETTINGS).record;
    const step = settle(probing, 31_000, 'ignored', 'a', SETTINGS);
    expect(step.record).toEqual({ state: 'half_open', probes: {} });
    expect(admit(step.record, 31_001, 'b', SETTINGS).result).toEqual({ admitted: true, probe: true });
  });

  test('outcomes of orders that are not probes are ignored', () => {
    const probing = admit(open, 30_000, 'a', SETTINGS).record;
    for (const result of ['success', 'failure'] as const) {
      expect(settle(probing, 31_000, result, undefined, SETTINGS).record).toEqual(probing);
      expect(settle(probing, 31_000, result, 'someone-else', SETTINGS).record).toEqual(probing);
    }
  });

  test('a probe whose lease ran out (its process died) gives up its place, and its late outcome counts for nothing', () => {
    const probing = admit(open, 30_000, 'a', SETTINGS).record;
    expect(current(probing, 39_999)).toBe(probing);
    expect(current(probing, 40_000)).toEqual({ state: 'half_open', probes: {} });
    const next = admit(probing, 40_000, 'b', SETTINGS);
    expect(next.result).toEqual({ admitted: true, probe: true });
    expect(settle(next.record, 40_001, 'failure', 'a', SETTINGS).record).toEqual(next.record);
  });

  test('an open record whose time is over settles as half-open: a stored step makes both transitions', () => {
    const probing: BreakerRecord = { state: 'half_open', probes: { a: 50_000 } };
    // Opened again by a failed probe, then over again by the time the next probe settles.
    const reopened = settle(probing, 31_000, 'failure', 'a', SETTINGS).record;
    const step = admit(reopened, 61_000, 'b', SETTINGS);
    expect(step.transitions).toEqual([{ from: 'open', to: 'half_open' }]);
    const closed = settle(step.record, 61_500, 'success', 'b', SETTINGS);
    expect(closed.transitions).toEqual([{ from: 'half_open', to: 'closed' }]);
  });

  test('a whole cycle: closed, open, half-open, open again, half-open, closed', () => {
    let record = after(fails(5));
    expect(record).toEqual({ state: 'open', until: 4 + SETTINGS.openMs });
    expect(admit(record, 10_000, 'x', SETTINGS).result.admitted).toBe(false);
    let step = admit(record, 30_004, 'a', SETTINGS);
    record = settle(step.record, 30_100, 'failure', 'a', SETTINGS).record;
    expect(record).toEqual({ state: 'open', until: 60_100 });
    step = admit(record, 60_100, 'b', SETTINGS);
    record = settle(step.record, 60_200, 'success', 'b', SETTINGS).record;
    expect(record).toEqual(CLOSED);
    expect(admit(record, 60_300, 'c', SETTINGS).result).toEqual({ admitted: true, probe: false });
  });
});
