import { LocalAttemptGate } from '../../../src/webhooks/local-attempt-gate';

function gate(maxInFlight = 2, coolOffMs = 1_000) {
  let now = 0;
  return { gate: new LocalAttemptGate(maxInFlight, coolOffMs, () => now), at: (ms: number) => (now = ms) };
}

test('at most maxInFlight local attempts at once; a place given back is taken again', () => {
  const { gate: g } = gate(2);
  expect(g.tryEnter('a')).toBe(true);
  expect(g.tryEnter('b')).toBe(true);
  expect(g.tryEnter('c')).toBe(false);
  g.leave();
  expect(g.tryEnter('c')).toBe(true);
  expect(g.tryEnter('a')).toBe(false);
});

test('an integrator whose attempt failed gets no local attempt for the cool-off; others still do', () => {
  const { gate: g, at } = gate(10, 1_000);
  at(5_000);
  g.record('slow', 'failed');
  expect(g.tryEnter('slow')).toBe(false);
  expect(g.tryEnter('other')).toBe(true);
  at(5_999);
  expect(g.tryEnter('slow')).toBe(false);
  at(6_000);
  expect(g.tryEnter('slow')).toBe(true);
});

test('a delivery ends the cool-off at once; refusals and no endpoint leave it as it is', () => {
  const { gate: g } = gate(10, 1_000);
  g.record('x', 'failed');
  g.record('x', 'refused');
  g.record('x', 'no_endpoint');
  expect(g.tryEnter('x')).toBe(false);
  g.record('x', 'delivered');
  expect(g.tryEnter('x')).toBe(true);
});

test('a place given back twice never makes room beyond the bound', () => {
  const { gate: g } = gate(1);
  g.leave();
  g.leave();
  expect(g.tryEnter('a')).toBe(true);
  expect(g.tryEnter('b')).toBe(false);
});
