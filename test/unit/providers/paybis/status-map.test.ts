import { isOrderStatus } from '../../../../src/domain/order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { mapPaybisStatus, PAYBIS_STATUS_MAP, PAYBIS_STATUSES } from '../../../../src/providers/paybis/status-map';

/** Every status Paybis documents or integrations have seen, with the broker status it must become. */
const EXPECTED: [string, string, string | undefined][] = [
  ['created', 'created', undefined],
  ['started', 'pending', undefined],
  ['pending', 'pending', undefined],
  ['payment-authorized', 'processing', undefined],
  ['paid', 'processing', undefined],
  ['confirming', 'processing', undefined],
  ['completed', 'complete', undefined],
  // Ended without payment: `expired`, which a payment on another transaction of the request still moves.
  ['cancelled', 'expired', undefined],
  ['rejected', 'failed', 'rejected_by_provider'],
  ['payment-error', 'expired', undefined],
  ['payment_error', 'expired', undefined],
];

describe('Paybis status map', () => {
  test.each(EXPECTED)('%s -> %s', (paybis, broker, reason) => {
    expect(mapPaybisStatus(paybis)).toEqual(reason ? { status: broker, failureReason: reason } : { status: broker });
  });

  test('the table covers exactly the statuses of the map, each onto a broker status', () => {
    expect([...PAYBIS_STATUSES].sort()).toEqual(EXPECTED.map(([s]) => s).sort());
    for (const status of PAYBIS_STATUSES) expect(isOrderStatus(PAYBIS_STATUS_MAP[status])).toBe(true);
  });

  test('an unknown status is refused, never mapped (docs/decisions.md, Unknown provider statuses)', () => {
    expect(() => mapPaybisStatus('refunded')).toThrow(UnknownProviderStatusError);
    expect(() => mapPaybisStatus('toString')).toThrow(UnknownProviderStatusError);
    expect(() => mapPaybisStatus('')).toThrow(UnknownProviderStatusError);
  });
});
