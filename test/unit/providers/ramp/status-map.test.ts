import { ORDER_STATUSES } from '../../../../src/domain/order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { mapRampStatus, RAMP_STATUS_MAP, RAMP_STATUSES } from '../../../../src/providers/ramp/status-map';

describe('Ramp status map', () => {
  // Every status Ramp documents (REST API reference, SDK PurchaseStatus) and those seen in code.
  test.each([
    ['INITIALIZED', 'pending'],
    ['PAYMENT_STARTED', 'pending'],
    ['PAYMENT_IN_PROGRESS', 'pending'],
    ['PAYMENT_FAILED', 'pending'],
    ['PAYMENT_EXECUTED', 'processing'],
    ['FIAT_SENT', 'pending'],
    ['FIAT_RECEIVED', 'processing'],
    ['RELEASING', 'processing'],
    ['RELEASED', 'complete'],
    ['EXPIRED', 'expired'],
    ['CANCELLED', 'failed'],
    ['CREATED', 'pending'],
    ['FIAT_PENDING', 'pending'],
    ['RETURNED', 'refunded'],
    ['REVIEW_REJECTED', 'failed'],
    ['FIAT_RETURNED', 'refunded'],
  ])('%s -> %s', (ramp, broker) => {
    expect(mapRampStatus(ramp).status).toBe(broker);
  });

  it('maps exactly the documented and seen statuses, each onto a broker status', () => {
    expect([...RAMP_STATUSES].sort()).toEqual(
      [
        'CANCELLED',
        'CREATED',
        'EXPIRED',
        'FIAT_PENDING',
        'FIAT_RECEIVED',
        'FIAT_RETURNED',
        'FIAT_SENT',
        'INITIALIZED',
        'PAYMENT_EXECUTED',
        'PAYMENT_FAILED',
        'PAYMENT_IN_PROGRESS',
        'PAYMENT_STARTED',
        'RELEASED',
        'RELEASING',
        'RETURNED',
        'REVIEW_REJECTED',
      ].sort(),
    );
    for (const status of Object.values(RAMP_STATUS_MAP)) expect(ORDER_STATUSES).toContain(status);
  });

  it('refuses an unknown status instead of mapping it (docs/decisions.md, Unknown provider statuses)', () => {
    expect(() => mapRampStatus('SOMETHING_NEW')).toThrow(UnknownProviderStatusError);
    expect(() => mapRampStatus('toString')).toThrow(UnknownProviderStatusError);
  });

  it('says why a purchase failed', () => {
    expect(mapRampStatus('CANCELLED').failureReason).toBe('cancelled_at_provider');
    expect(mapRampStatus('REVIEW_REJECTED').failureReason).toBe('rejected_in_review');
    expect(mapRampStatus('RELEASED').failureReason).toBeUndefined();
  });
});
