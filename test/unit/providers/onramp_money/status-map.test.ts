import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { mapOnrampMoneyStatus, ONRAMP_MONEY_STATUS_MAP } from '../../../../src/providers/onramp_money/status-map';

/** Every onramp status code of onramp.gitbook.io "Order status codes", as the page lists them. */
const DOCUMENTED = [-4, -3, -2, -1, 0, 1, 2, 3, 13, 4, 15, 5, 16, 11, 12, 14];

describe('Onramp.money status map', () => {
  test('maps every documented onramp status code, and nothing else', () => {
    expect(
      Object.keys(ONRAMP_MONEY_STATUS_MAP)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...DOCUMENTED].sort((a, b) => a - b));
  });

  test.each([
    [-4, 'failed', 'amount_mismatch'],
    [-3, 'failed', 'kyc_name_mismatch'],
    [-2, 'expired', undefined],
    [-1, 'expired', undefined],
    [0, 'pending', undefined],
    [1, 'pending', undefined],
    [2, 'processing', undefined],
    [3, 'processing', undefined],
    [11, 'processing', undefined],
    [12, 'processing', undefined],
    [13, 'processing', undefined],
    [14, 'processing', undefined],
    [4, 'complete', undefined],
    [15, 'complete', undefined],
    [5, 'complete', undefined],
    [16, 'complete', undefined],
  ])('%i is %s', (code, status, failureReason) => {
    expect(mapOnrampMoneyStatus(code)).toEqual(failureReason ? { status, failureReason } : { status });
  });

  test.each([6, 7, 10, 17, 19, -5, 30])('refuses %i, which the onramp table does not list (off-ramp codes included)', (code) => {
    expect(() => mapOnrampMoneyStatus(code)).toThrow(UnknownProviderStatusError);
  });
});
