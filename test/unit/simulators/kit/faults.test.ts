import { checkoutActionAsSwitched, creationFault, NO_FAULTS, pickFaults } from '../../../../src/simulators/kit/faults';

/** A random source that gives `values` in turn (then 0.5) and counts its calls. */
function draws(...values: number[]) {
  const random = Object.assign(
    () => {
      random.calls++;
      return values.shift() ?? 0.5;
    },
    { calls: 0 },
  );
  return random;
}

describe('checkoutActionAsSwitched', () => {
  const allowed = ['pay', 'hold', 'fail', 'expire'];

  test('every payment goes through at the default rate, and nothing is drawn', () => {
    const random = draws();
    expect(NO_FAULTS.completionRate).toBe(1);
    expect(checkoutActionAsSwitched('pay', allowed, NO_FAULTS, random)).toBe('pay');
    expect(random.calls).toBe(0);
  });

  test('a payment fails with probability 1 - completionRate, played as the provider’s fail', () => {
    const faults = { completionRate: 0.6 };
    expect(checkoutActionAsSwitched('pay', allowed, faults, draws(0.59))).toBe('pay');
    expect(checkoutActionAsSwitched('pay', allowed, faults, draws(0.6))).toBe('fail');
    expect(checkoutActionAsSwitched('pay', allowed, faults, draws(0.99))).toBe('fail');
    expect(checkoutActionAsSwitched('pay', allowed, { completionRate: 0 }, draws(0))).toBe('fail');
  });

  test('other actions are played as asked, without a draw', () => {
    const random = draws();
    for (const action of ['hold', 'fail', 'expire']) {
      expect(checkoutActionAsSwitched(action, allowed, { completionRate: 0 }, random)).toBe(action);
    }
    expect(random.calls).toBe(0);
  });

  test('where the state has no fail (a late payment to an expired order), the failed payment changes nothing', () => {
    expect(checkoutActionAsSwitched('pay', ['pay'], { completionRate: 0 }, draws(0.5))).toBeUndefined();
  });

  test('the switch is one a JSON body can set', () => {
    expect(pickFaults({ completionRate: 0.85, createRejectRate: '1' })).toEqual({ completionRate: 0.85 });
  });
});

describe('creationFault', () => {
  test('an outage first, then a refusal, each with its own draw', () => {
    expect(creationFault({ createErrorRate: 1, createRejectRate: 1 }, draws(0.99))).toBe('outage');
    expect(creationFault({ createErrorRate: 0.5, createRejectRate: 1 }, draws(0.5, 0.99))).toBe('refusal');
    expect(creationFault({ createErrorRate: 0.5, createRejectRate: 0.5 }, draws(0.5, 0.5))).toBeUndefined();
    expect(creationFault(NO_FAULTS, draws())).toBeUndefined();
  });
});
