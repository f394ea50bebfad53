import { ORDER_STATUSES } from '../../../../src/domain/order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import {
  mapRevolutStatus,
  REVOLUT_EVENT_STATUS,
  REVOLUT_FAIL_REASONS,
  REVOLUT_NO_ORDER,
  REVOLUT_STATUSES,
  revolutStatusOfEvent,
} from '../../../../src/providers/revolut/status-map';

describe('Revolut Ramp status map', () => {
  test('every documented order status maps to a broker status', () => {
    // Order.status of the OpenAPI document (Crypto Ramp API 2.0).
    expect(REVOLUT_STATUSES.sort()).toEqual(['AWAITING_PAYMENT', 'COMPLETED', 'FAILED', 'PROCESSING']);
    for (const status of REVOLUT_STATUSES) expect(ORDER_STATUSES).toContain(mapRevolutStatus(status).status);
    expect(mapRevolutStatus('AWAITING_PAYMENT')).toEqual({ status: 'pending' });
    expect(mapRevolutStatus('PROCESSING')).toEqual({ status: 'processing' });
    expect(mapRevolutStatus('COMPLETED')).toEqual({ status: 'complete' });
    expect(mapRevolutStatus(REVOLUT_NO_ORDER)).toEqual({ status: 'created' });
  });

  test('every documented fail reason refines FAILED; an undocumented one stays a plain failure', () => {
    expect(Object.keys(REVOLUT_FAIL_REASONS).sort()).toEqual([
      'CRYPTO_WITHDRAWAL_FAILED',
      'OTHER',
      'PAYMENT_DECLINED',
      'PAYMENT_NOT_RECEIVED',
    ]);
    expect(mapRevolutStatus('FAILED', 'PAYMENT_NOT_RECEIVED')).toEqual({ status: 'expired' });
    expect(mapRevolutStatus('FAILED', 'PAYMENT_DECLINED')).toEqual({ status: 'failed', failureReason: 'payment_declined' });
    expect(mapRevolutStatus('FAILED', 'CRYPTO_WITHDRAWAL_FAILED')).toEqual({ status: 'failed', failureReason: 'crypto_delivery_failed' });
    expect(mapRevolutStatus('FAILED', 'OTHER')).toEqual({ status: 'failed', failureReason: 'failed_at_provider' });
    expect(mapRevolutStatus('FAILED', 'SOMETHING_NEW')).toEqual({ status: 'failed', failureReason: 'failed_at_provider' });
    expect(mapRevolutStatus('FAILED')).toEqual({ status: 'failed', failureReason: 'failed_at_provider' });
  });

  test('an undocumented status is never mapped', () => {
    for (const status of ['REFUNDED', 'completed', 'toString', '']) {
      expect(() => mapRevolutStatus(status)).toThrow(UnknownProviderStatusError);
    }
  });

  test('every documented buy event announces a status; sell events and others are unknown', () => {
    expect(Object.keys(REVOLUT_EVENT_STATUS).sort()).toEqual(['ORDER_COMPLETED', 'ORDER_CREATED', 'ORDER_FAILED', 'ORDER_PROCESSING']);
    expect(revolutStatusOfEvent('ORDER_CREATED')).toBe('AWAITING_PAYMENT');
    expect(revolutStatusOfEvent('ORDER_COMPLETED')).toBe('COMPLETED');
    for (const event of ['SELL_ORDER_COMPLETED', 'SELL_ORDER_REFUNDED', 'ORDER_REFUNDED', 'hasOwnProperty']) {
      expect(() => revolutStatusOfEvent(event)).toThrow(UnknownProviderStatusError);
    }
  });
});
