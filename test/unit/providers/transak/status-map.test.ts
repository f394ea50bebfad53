import { ORDER_STATUSES } from '../../../../src/domain/order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { mapTransakStatus, TRANSAK_STATUS_MAP, TRANSAK_STATUSES } from '../../../../src/providers/transak/status-map';

describe('Transak status map', () => {
  it.each([
    ['AWAITING_PAYMENT_FROM_USER', 'pending'],
    ['PAYMENT_DONE_MARKED_BY_USER', 'pending'],
    ['ORDER_PAYMENT_VERIFYING', 'pending'],
    ['PROCESSING', 'processing'],
    ['PENDING_DELIVERY_FROM_TRANSAK', 'processing'],
    ['ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK', 'hold'],
    ['COMPLETED', 'complete'],
    ['CANCELLED', 'failed'],
    ['FAILED', 'failed'],
    ['REFUNDED', 'refunded'],
    ['EXPIRED', 'expired'],
  ])('%s -> %s', (transak, broker) => {
    expect(mapTransakStatus(transak).status).toBe(broker);
  });

  it('covers exactly the table above, each onto a broker status', () => {
    expect(TRANSAK_STATUSES).toHaveLength(11);
    for (const status of Object.values(TRANSAK_STATUS_MAP)) expect(ORDER_STATUSES).toContain(status);
  });

  it('refuses an unknown status instead of mapping it (docs/decisions.md, Unknown provider statuses)', () => {
    expect(() => mapTransakStatus('SOMETHING_NEW')).toThrow(UnknownProviderStatusError);
    expect(() => mapTransakStatus('toString')).toThrow(UnknownProviderStatusError);
  });
});
