import { ALCHEMYPAY_STATUSES, ALCHEMYPAY_WEBHOOK_STATUSES, mapAlchemypayStatus } from '../../../../src/providers/alchemypay/status-map';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';

test.each([
  ['PENDING', 'pending'],
  ['INTERIM_PAY_FAIL', 'pending'],
  ['PAY_SUCCESS', 'processing'],
  ['TRANSFER', 'processing'],
  ['FINISHED', 'complete'],
  ['PAY_FAIL', 'failed'],
  ['CANCEL', 'expired'],
  ['RISK_CONTROL', 'hold'],
  ['REFUNDED', 'refunded'],
  ['INVALID_ADDRESS', 'failed'],
])('%s is %s', (status, expected) => {
  expect(mapAlchemypayStatus(status).status).toBe(expected);
});

test('every documented status is in the table, and only those', () => {
  expect([...ALCHEMYPAY_STATUSES].sort()).toEqual(
    [
      'CANCEL',
      'FINISHED',
      'INTERIM_PAY_FAIL',
      'INVALID_ADDRESS',
      'PAY_FAIL',
      'PAY_SUCCESS',
      'PENDING',
      'REFUNDED',
      'RISK_CONTROL',
      'TRANSFER',
    ].sort(),
  );
  expect(ALCHEMYPAY_WEBHOOK_STATUSES).toEqual(['PAY_SUCCESS', 'PAY_FAIL', 'FINISHED']);
});

test('failures carry their reason', () => {
  expect(mapAlchemypayStatus('PAY_FAIL')).toEqual({ status: 'failed', failureReason: 'payment_failed' });
  expect(mapAlchemypayStatus('INVALID_ADDRESS')).toEqual({ status: 'failed', failureReason: 'invalid_address' });
});

test('an order Alchemy Pay does not have yet is created', () => {
  expect(mapAlchemypayStatus('noOrderYet')).toEqual({ status: 'created' });
});

test.each(['Paying', 'finished', 'toString', ''])('an undocumented status %p is refused', (status) => {
  expect(() => mapAlchemypayStatus(status)).toThrow(UnknownProviderStatusError);
});
