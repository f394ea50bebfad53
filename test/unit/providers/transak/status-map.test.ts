import { ORDER_STATUSES } from '../../../../src/domain/order-status';
import { brokerStatus, TRANSAK_STATUS_MAP, TRANSAK_STATUSES } from '../../../../src/providers/transak/status-map';

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
    expect(brokerStatus(transak)).toBe(broker);
  });

  it('covers exactly the table above, each onto a broker status', () => {
    expect(TRANSAK_STATUSES).toHaveLength(11);
    for (const status of Object.values(TRANSAK_STATUS_MAP)) expect(ORDER_STATUSES).toContain(status);
  });

  it('maps an unknown status to created, which can never move an order', () => {
    expect(brokerStatus('SOMETHING_NEW')).toBe('created');
    expect(brokerStatus('toString')).toBe('created');
  });
});
