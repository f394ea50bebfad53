import { ORDER_STATUSES } from '../../../../src/domain/order-status';
import {
  MOONPAY_FAILED_REASONS,
  MOONPAY_FAILURE_OUTCOMES,
  MOONPAY_NO_TRANSACTION,
  MOONPAY_STATUS_MAP,
  MOONPAY_STATUSES,
  toBrokerStatus,
} from '../../../../src/providers/moonpay/status-map';

describe('MoonPay status map', () => {
  test.each([
    ['waitingPayment', 'pending'],
    ['waitingAuthorization', 'hold'],
    ['pending', 'processing'],
    ['completed', 'complete'],
    ['failed', 'failed'],
  ])('%s -> %s', (status, expected) => {
    expect(toBrokerStatus(status)).toBe(expected);
  });

  test('the table above is every documented buy status, each onto a broker status', () => {
    expect(MOONPAY_STATUSES.sort()).toEqual(['completed', 'failed', 'pending', 'waitingAuthorization', 'waitingPayment']);
    for (const status of Object.values(MOONPAY_STATUS_MAP)) expect(ORDER_STATUSES).toContain(status);
  });

  test.each([
    ['timeout_bank_transfer', 'expired'],
    ['timeout_3d_secure', 'expired'],
    ['timeout_kyc_verification', 'expired'],
    ['timeout_card_verification', 'expired'],
    ['bank_transfer_timeout', 'expired'],
    ['refund', 'refunded'],
  ])('failed because of %s -> %s', (reason, expected) => {
    expect(toBrokerStatus('failed', reason)).toBe(expected);
  });

  test('the expiry and refund table is exactly the one tested above', () => {
    expect(Object.keys(MOONPAY_FAILURE_OUTCOMES).sort()).toEqual([
      'bank_transfer_timeout',
      'refund',
      'timeout_3d_secure',
      'timeout_bank_transfer',
      'timeout_card_verification',
      'timeout_kyc_verification',
    ]);
  });

  test.each(MOONPAY_FAILED_REASONS.map((r) => [r]))('failed because of %s stays failed', (reason) => {
    expect(toBrokerStatus('failed', reason)).toBe('failed');
  });

  test('a failure reason only refines failed', () => {
    expect(toBrokerStatus('pending', 'refund')).toBe('processing');
    expect(toBrokerStatus('completed', 'timeout_bank_transfer')).toBe('complete');
  });

  test('no transaction yet is created', () => {
    expect(toBrokerStatus(MOONPAY_NO_TRANSACTION)).toBe('created');
  });

  test('an unknown status is a safe open status, not an error', () => {
    expect(toBrokerStatus('someFutureStatus')).toBe('pending');
    expect(toBrokerStatus('toString')).toBe('pending');
  });
});
