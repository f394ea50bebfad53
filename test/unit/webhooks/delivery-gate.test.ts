import { deferralDelayMs, DeliveryGate, DEFER_MAX_MS, type DeliveryLimits } from '../../../src/webhooks/delivery-gate';
import { EndpointHealth } from '../../../src/webhooks/endpoint-health';

function gate(limits: Partial<DeliveryLimits> = {}) {
  let now = 0;
  const health = new EndpointHealth({ slowMs: 100, coolOffMs: 1_000 }, () => now);
  const g = new DeliveryGate({ perWorker: 4, perIntegrator: 2, ...limits }, health);
  return { gate: g, health, at: (ms: number) => (now = ms) };
}

const leaveOf = (place: ReturnType<DeliveryGate['tryEnter']>) => {
  if (!('leave' in place)) throw new Error(`refused: ${place.refused}`);
  return place.leave;
};

test('one integrator gets at most perIntegrator places; another still gets in', () => {
  const { gate: g } = gate();
  const first = leaveOf(g.tryEnter('a'));
  leaveOf(g.tryEnter('a'));
  expect(g.tryEnter('a')).toEqual({ refused: 'integrator_busy' });
  leaveOf(g.tryEnter('b'));
  first();
  leaveOf(g.tryEnter('a'));
});

test('the worker gives at most perWorker places in all, whoever asks', () => {
  const { gate: g } = gate({ perWorker: 3, perIntegrator: 2 });
  leaveOf(g.tryEnter('a'));
  leaveOf(g.tryEnter('a'));
  const b = leaveOf(g.tryEnter('b'));
  expect(g.tryEnter('c')).toEqual({ refused: 'worker_busy' });
  b();
  b();
  leaveOf(g.tryEnter('c'));
  expect(g.tryEnter('d')).toEqual({ refused: 'worker_busy' });
});

test('a stalled endpoint gets one attempt at a time (a probe); the others fail at once, until a timely delivery', () => {
  const { gate: g, health, at } = gate();
  at(10_000);
  health.record('a', 'failed', 100);
  const probe = leaveOf(g.tryEnter('a'));
  expect(g.tryEnter('a')).toEqual({ refused: 'not_answering' });
  leaveOf(g.tryEnter('b'));
  probe();
  health.record('a', 'delivered', 5);
  leaveOf(g.tryEnter('a'));
  leaveOf(g.tryEnter('a'));
});

test('a stall lasts the cool-off; a quick failure or a slow delivery is no stall', () => {
  const { gate: g, health, at } = gate({ perWorker: 10, perIntegrator: 5 });
  at(0);
  health.record('a', 'failed', 99);
  health.record('b', 'delivered', 5_000);
  for (const id of ['a', 'a', 'b', 'b']) leaveOf(g.tryEnter(id));
  health.record('c', 'failed', 10_000);
  leaveOf(g.tryEnter('c'));
  at(999);
  expect(g.tryEnter('c')).toEqual({ refused: 'not_answering' });
  at(1_000);
  leaveOf(g.tryEnter('c'));
});

test('a place given back twice is given back once', () => {
  const { gate: g } = gate({ perWorker: 1, perIntegrator: 1 });
  const leave = leaveOf(g.tryEnter('a'));
  leave();
  leave();
  leaveOf(g.tryEnter('b'));
  expect(g.tryEnter('a')).toEqual({ refused: 'worker_busy' });
});

test('a deferral pauses 1 s doubling with each, at most a minute, jittered down by at most half', () => {
  expect(deferralDelayMs(0, () => 0)).toBe(1_000);
  expect(deferralDelayMs(0, () => 0.999_999)).toBe(500);
  expect(deferralDelayMs(3, () => 0)).toBe(8_000);
  expect(deferralDelayMs(6, () => 0)).toBe(DEFER_MAX_MS);
  expect(deferralDelayMs(1_000, () => 0)).toBe(DEFER_MAX_MS);
});
