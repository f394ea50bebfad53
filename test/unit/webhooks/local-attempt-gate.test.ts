import { LocalAttemptGate, type LocalAttemptLimits } from '../../../src/webhooks/local-attempt-gate';

function gate(limits: Partial<LocalAttemptLimits> = {}) {
  let now = 0;
  const g = new LocalAttemptGate({ maxInFlight: 2, slowMs: 100, coolOffMs: 1_000, ...limits }, () => now);
  return { gate: g, at: (ms: number) => (now = ms) };
}

test('at most maxInFlight local attempts at once; a place given back is taken again', () => {
  const { gate: g } = gate({ maxInFlight: 2 });
  const a = g.tryEnter('a');
  expect(a).toBeDefined();
  expect(g.tryEnter('b')).toBeDefined();
  expect(g.tryEnter('c')).toBeUndefined();
  a!();
  expect(g.tryEnter('c')).toBeDefined();
  expect(g.tryEnter('a')).toBeUndefined();
});

test('a place given back twice is given back once', () => {
  const { gate: g } = gate({ maxInFlight: 1 });
  const leave = g.tryEnter('a')!;
  leave();
  leave();
  expect(g.tryEnter('a')).toBeDefined();
  expect(g.tryEnter('b')).toBeUndefined();
});

test('an integrator whose attempt failed gets no local attempt for the cool-off; others still do', () => {
  const { gate: g, at } = gate({ maxInFlight: 10, coolOffMs: 1_000 });
  at(5_000);
  g.record('slow', 'failed', 10);
  expect(g.tryEnter('slow')).toBeUndefined();
  expect(g.tryEnter('other')).toBeDefined();
  at(5_999);
  expect(g.tryEnter('slow')).toBeUndefined();
  at(6_000);
  expect(g.tryEnter('slow')).toBeDefined();
});

test('a slow answer starts the cool-off even when it was a delivery; a timely delivery ends it at once', () => {
  const { gate: g } = gate({ maxInFlight: 10, slowMs: 100 });
  g.record('x', 'delivered', 100);
  expect(g.tryEnter('x')).toBeUndefined();
  g.record('x', 'refused', 5);
  g.record('x', 'no_endpoint', 5);
  expect(g.tryEnter('x')).toBeUndefined();
  g.record('x', 'delivered', 99);
  expect(g.tryEnter('x')).toBeDefined();
});

test('an attempt running for slowMs or more shuts its integrator out before it ends; others still get in', () => {
  const { gate: g, at } = gate({ maxInFlight: 10, slowMs: 100 });
  at(0);
  const hanging = g.tryEnter('hangs')!;
  at(99);
  expect(g.tryEnter('hangs')).toBeDefined();
  at(100);
  expect(g.tryEnter('hangs')).toBeUndefined();
  expect(g.tryEnter('other')).toBeDefined();
  hanging();
  expect(g.tryEnter('hangs')).toBeDefined();
});

test("the ordinary attempts' gate and the local one share the worker's view of an endpoint", () => {
  const { gate: g } = gate({ maxInFlight: 10 });
  g.health.record('x', 'failed', 5);
  expect(g.tryEnter('x')).toBeUndefined();
  expect(g.health.inTrouble('x')).toBe(true);
  expect(g.health.stalled('x')).toBe(false);
  g.record('x', 'failed', 100);
  expect(g.health.stalled('x')).toBe(true);
});
