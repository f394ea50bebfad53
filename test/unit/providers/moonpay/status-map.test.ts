import { ORDER_STATUSES } from '../../../../src/domain/order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import {
  MOONPAY_FAILED_REASONS,
  MOONPAY_FAILURE_OUTCOMES,
  MOONPAY_NO_TRANSACTION,
  MOONPAY_STATUS_MAP,
  MOONPAY_STATUSES,
  mapMoonpayStatus,
} from '../../../../src/providers/moonpay/status-map';

describe('MoonPay status map', () => {
  test.each([
    ['waitingPayment', 'pending'],
    ['waitingAuthorization', 'hold'],
    ['pending', 'processing'],
    ['completed', 'complete'],
    ['failed', 'failed'],
  ])('%s -> %s', (status, expected) => {
    expect(mapMoonpayStatus(status).status).toBe(expected);
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
    expect(mapMoonpayStatus('failed', reason).status).toBe(expected);
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
    expect(mapMoonpayStatus('failed', reason).status).toBe('failed');
  });

  test('a failure reason only refines failed', () => {
    expect(mapMoonpayStatus('pending', 'refund').status).toBe('processing');
    expect(mapMoonpayStatus('completed', 'timeout_bank_transfer').status).toBe('complete');
  });

  test('no transaction yet is created', () => {
    expect(mapMoonpayStatus(MOONPAY_NO_TRANSACTION).status).toBe('created');
  });

  test('an unknown status is refused, never mapped (docs/decisions.md, Unknown provider statuses)', () => {
    expect(() => mapMoonpayStatus('someFutureStatus')).toThrow(UnknownProviderStatusError);
    expect(() => mapMoonpayStatus('toString')).toThrow(UnknownProviderStatusError);
  });

  test('a failed status carries its failure code as the reason, else failed_at_moonpay', () => {
    expect(mapMoonpayStatus('failed', 'rejected_kyc')).toEqual({ status: 'failed', failureReason: 'rejected_kyc' });
    expect(mapMoonpayStatus('failed')).toEqual({ status: 'failed', failureReason: 'failed_at_moonpay' });
    expect(mapMoonpayStatus('failed', 'refund')).toEqual({ status: 'refunded' });
  });
});
