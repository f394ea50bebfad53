import { isOrderStatus } from '../../../../src/domain/order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { BANXA_STATUS_MAP, BANXA_STATUSES, mapBanxaStatus } from '../../../../src/providers/banxa/status-map';

/** Every status Banxa documents or integrations have seen, with the broker status it must become. */
const EXPECTED: [string, string, string | undefined][] = [
  ['pendingPayment', 'created', undefined],
  ['waitingPayment', 'pending', undefined],
  ['extraVerification', 'hold', undefined],
  ['paymentReceived', 'processing', undefined],
  ['inProgress', 'processing', undefined],
  ['coinTransferred', 'processing', undefined],
  ['cryptoTransferred', 'processing', undefined],
  ['complete', 'complete', undefined],
  ['completed', 'complete', undefined],
  ['succeeded', 'complete', undefined],
  ['cancelled', 'failed', 'cancelled_by_provider'],
  ['declined', 'failed', 'payment_declined'],
  ['expired', 'expired', undefined],
  ['refunded', 'refunded', undefined],
];

describe('Banxa status map', () => {
  test.each(EXPECTED)('%s -> %s', (banxa, broker, reason) => {
    expect(mapBanxaStatus(banxa)).toEqual(reason ? { status: broker, failureReason: reason } : { status: broker });
  });

  test('the table covers exactly the statuses of the map, each onto a broker status', () => {
    expect(BANXA_STATUSES.sort()).toEqual(EXPECTED.map(([s]) => s).sort());
    for (const status of BANXA_STATUSES) expect(isOrderStatus(BANXA_STATUS_MAP[status])).toBe(true);
  });

  test('an unknown status is refused, never mapped (docs/decisions.md, Unknown provider statuses)', () => {
    expect(() => mapBanxaStatus('awaitingSomethingNew')).toThrow(UnknownProviderStatusError);
    expect(() => mapBanxaStatus('toString')).toThrow(UnknownProviderStatusError);
    expect(() => mapBanxaStatus('')).toThrow(UnknownProviderStatusError);
  });
});
