import { isOrderStatus, type OrderStatus } from '../../../../src/domain/order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { legOf, lookupMercuryoStatus, mapMercuryoStatus, MERCURYO_STATUS_MAP } from '../../../../src/providers/mercuryo/status-map';

/** Every status Mercuryo documents per operation type (and `completed` on invoice payments, seen in code). */
const DOCUMENTED: [type: string, status: string, expected: OrderStatus][] = [
  ['buy', 'new', 'created'],
  ['buy', 'pending', 'pending'],
  ['buy', 'order_scheduled', 'hold'],
  ['buy', 'descriptor_failed', 'hold'],
  ['buy', 'failed_exchange', 'hold'],
  ['buy', 'paid', 'processing'],
  ['buy', 'order_failed', 'failed'],
  ['buy', 'cancelled', 'failed'],
  ['mobile_pay', 'new', 'created'],
  ['mobile_pay', 'pending', 'pending'],
  ['mobile_pay', 'order_scheduled', 'hold'],
  ['mobile_pay', 'paid', 'processing'],
  ['mobile_pay', 'order_failed', 'failed'],
  ['mobile_pay', 'cancelled', 'failed'],
  ['buy_acquirer', 'paid', 'processing'],
  ['buy_acquirer', 'completed', 'processing'],
  ['withdraw', 'new', 'processing'],
  ['withdraw', 'pending', 'processing'],
  ['withdraw', 'order_scheduled', 'hold'],
  ['withdraw', 'failed', 'failed'],
  ['withdraw', 'completed', 'complete'],
  ['deposit', 'new', 'pending'],
  ['deposit', 'pending', 'pending'],
  ['deposit', 'completed', 'processing'],
  ['deposit', 'succeeded', 'processing'],
  ['deposit', 'failed', 'failed'],
  ['sell', 'new', 'created'],
  ['sell', 'pending', 'processing'],
  ['sell', 'succeeded', 'complete'],
  ['sell', 'failed', 'refunded'],
];

describe('Mercuryo status map', () => {
  test.each(DOCUMENTED)('%s %s -> %s', (type, status, expected) => {
    expect(lookupMercuryoStatus(type, status)?.status).toBe(expected);
  });

  test('the table test covers every entry of the map, and each maps to a broker status', () => {
    const covered = new Set(DOCUMENTED.map(([type, status]) => `${legOf(type)}:${status}`));
    for (const [leg, table] of Object.entries(MERCURYO_STATUS_MAP)) {
      for (const [status, mapped] of Object.entries(table)) {
        expect(covered.has(`${leg}:${status}`)).toBe(true);
        expect(isOrderStatus(mapped)).toBe(true);
      }
    }
  });

  test('failed statuses carry a reason', () => {
    expect(lookupMercuryoStatus('buy', 'order_failed')).toEqual({ status: 'failed', failureReason: 'payment_declined' });
    expect(lookupMercuryoStatus('mobile_pay', 'cancelled')).toEqual({ status: 'failed', failureReason: 'cancelled_by_provider' });
    expect(lookupMercuryoStatus('withdraw', 'failed')).toEqual({ status: 'failed', failureReason: 'crypto_delivery_failed' });
    expect(lookupMercuryoStatus('withdraw', 'completed')).toEqual({ status: 'complete' });
  });

  test('an unknown status or type maps to no broker status at all, and does not throw', () => {
    expect(lookupMercuryoStatus('buy', 'brand_new_status')).toBeUndefined();
    expect(lookupMercuryoStatus('withdraw', 'brand_new_status')).toBeUndefined();
    expect(lookupMercuryoStatus('spend_card', 'active')).toBeUndefined();
    expect(lookupMercuryoStatus('buy', 'toString')).toBeUndefined();
  });

  test('the mapper refuses an unknown status or type, naming it as <type>:<status>', () => {
    expect(mapMercuryoStatus('withdraw', 'completed')).toEqual({ status: 'complete' });
    expect(() => mapMercuryoStatus('buy', 'brand_new_status')).toThrow(UnknownProviderStatusError);
    expect(() => mapMercuryoStatus('spend_card', 'active')).toThrow('(spend_card:active)');
    expect(() => mapMercuryoStatus('buy', 'toString')).toThrow(UnknownProviderStatusError);
  });
});
