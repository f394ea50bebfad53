import { ORDER_STATUSES } from '../../../../src/domain/order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import {
  COINBASE_NO_TRANSACTION,
  COINBASE_STATUS_MAP,
  COINBASE_STATUSES,
  mapCoinbaseStatus,
} from '../../../../src/providers/coinbase/status-map';

describe('Coinbase status map', () => {
  test.each([
    ['ONRAMP_TRANSACTION_STATUS_CREATED', 'pending'],
    ['ONRAMP_TRANSACTION_STATUS_IN_PROGRESS', 'processing'],
    ['ONRAMP_TRANSACTION_STATUS_SUCCESS', 'complete'],
    ['ONRAMP_TRANSACTION_STATUS_FAILED', 'failed'],
  ])('%s -> %s', (status, expected) => {
    expect(mapCoinbaseStatus(status).status).toBe(expected);
  });

  test('the table above is every documented transaction status, each onto a broker status', () => {
    expect([...COINBASE_STATUSES].sort()).toEqual([
      'ONRAMP_TRANSACTION_STATUS_CREATED',
      'ONRAMP_TRANSACTION_STATUS_FAILED',
      'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS',
      'ONRAMP_TRANSACTION_STATUS_SUCCESS',
    ]);
    for (const status of Object.values(COINBASE_STATUS_MAP)) expect(ORDER_STATUSES).toContain(status);
  });

  test("a failure carries Coinbase's reason, the error code without one, and a generic one when both are unspecified", () => {
    const failed = 'ONRAMP_TRANSACTION_STATUS_FAILED';
    expect(mapCoinbaseStatus(failed, 'FAILURE_REASON_BUY_FAILED')).toEqual({
      status: 'failed',
      failureReason: 'FAILURE_REASON_BUY_FAILED',
    });
    expect(mapCoinbaseStatus(failed, 'FAILURE_REASON_UNSPECIFIED', 'ERROR_CODE_CARD_DECLINED')).toEqual({
      status: 'failed',
      failureReason: 'ERROR_CODE_CARD_DECLINED',
    });
    expect(mapCoinbaseStatus(failed, 'FAILURE_REASON_UNSPECIFIED', 'ERROR_CODE_UNSPECIFIED')).toEqual({
      status: 'failed',
      failureReason: 'failed_at_coinbase',
    });
  });

  test('no transaction yet is created; an undocumented status is refused', () => {
    expect(mapCoinbaseStatus(COINBASE_NO_TRANSACTION)).toEqual({ status: 'created' });
    expect(() => mapCoinbaseStatus('ONRAMP_TRANSACTION_STATUS_REFUNDED')).toThrow(UnknownProviderStatusError);
    expect(() => mapCoinbaseStatus('toString')).toThrow(UnknownProviderStatusError);
  });
});
