import { currencyDictionary } from '../../../../src/domain/currencies';
import { listedTransaction } from '../../../../src/providers/kit/listed';
import { listPosition, nextListCursor, TRANSAK_LISTED_STATUSES } from '../../../../src/providers/transak/order-list';
import { TransakOrdersResponseSchema } from '../../../../src/providers/transak/schemas';
import { fromListedOrder, fromOrder } from '../../../../src/providers/transak/transformers';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';
import ordersByPartnerOrderId from './fixtures/orders-by-partner-order-id.json';

describe('Transak order list rows', () => {
  const [listed] = TransakOrdersResponseSchema.parse(ordersByPartnerOrderId).data;

  it('reads a row as a status lookup reads the order: status, terms, our id and its creation time', () => {
    expect(fromListedOrder(listed!, currencyDictionary)).toEqual(fromOrder(listed!, currencyDictionary));
    expect(listedTransaction(fromListedOrder(listed!, currencyDictionary))).toEqual({
      orderId: '6f1c2b7e-3d4a-4e8f-9a0b-1c2d3e4f5a6b',
      providerOrderId: '7d8e0655-728e-458c-9c15-b3e9f2aa66ed',
      providerStatus: 'PENDING_DELIVERY_FROM_TRANSAK',
      status: 'processing',
      cryptoAmount: '0.01596979',
      reported: {
        walletAddress: '0x12d8885e0F0BFc487d93A9e3DcB5c23cB86EE9ae',
        cryptoCurrency: crypto('ETH', 'ethereum').id,
        fiatCurrency: fiat('GBP').id,
        fiatAmount: '50',
      },
      createdAt: '2024-04-23T14:41:14.063Z',
    });
  });

  it("names no broker order for a row without partnerOrderId (Transak's id does not stand in)", () => {
    const { partnerOrderId: _, ...row } = listed!;
    expect(fromOrder(row, currencyDictionary).orderId).toBe('7d8e0655-728e-458c-9c15-b3e9f2aa66ed');
    const transaction = listedTransaction(fromListedOrder(row, currencyDictionary));
    expect(transaction).toMatchObject({ providerOrderId: '7d8e0655-728e-458c-9c15-b3e9f2aa66ed', status: 'processing' });
    expect(transaction).not.toHaveProperty('orderId');
  });

  it('a row without a creation time cannot be placed in a window', () => {
    expect(listedTransaction(fromListedOrder({ ...listed!, createdAt: undefined }, currencyDictionary))).toBeUndefined();
  });
});

describe('Transak order list cursor', () => {
  it('starts at the first status, goes on within a status while pages are full, then to the next status', () => {
    const first = listPosition(undefined);
    expect(first).toEqual({ status: 'AWAITING_PAYMENT_FROM_USER', skip: 0 });
    // Ten rows of the page before are read again: a row moved up by an order leaving the status is not skipped.
    expect(nextListCursor(first, '100')).toBe('AWAITING_PAYMENT_FROM_USER:90');
    expect(nextListCursor({ status: 'AWAITING_PAYMENT_FROM_USER', skip: 90 }, '190')).toBe('AWAITING_PAYMENT_FROM_USER:180');
    expect(listPosition('AWAITING_PAYMENT_FROM_USER:100')).toEqual({ status: 'AWAITING_PAYMENT_FROM_USER', skip: 100 });
    expect(nextListCursor({ status: 'AWAITING_PAYMENT_FROM_USER', skip: 100 }, undefined)).toBe('PAYMENT_DONE_MARKED_BY_USER:0');
    expect(nextListCursor({ status: 'EXPIRED', skip: 0 }, undefined)).toBeUndefined();
  });

  it('walks every documented status once, final statuses last', () => {
    const walked: string[] = [];
    for (let cursor: string | undefined = ''; cursor !== undefined;) {
      const position = listPosition(cursor === '' ? undefined : cursor);
      walked.push(position.status);
      cursor = nextListCursor(position, undefined);
    }
    expect(walked).toEqual([...TRANSAK_LISTED_STATUSES]);
    expect(walked).toHaveLength(10);
    expect(walked.slice(-5).sort()).toEqual(['CANCELLED', 'COMPLETED', 'EXPIRED', 'FAILED', 'REFUNDED']);
    expect(walked).not.toContain('ORDER_PAYMENT_VERIFYING');
  });

  it('refuses a cursor it did not make', () => {
    for (const cursor of ['', '100', 'COMPLETED', 'COMPLETED:-1', 'DONE:0', 'ORDER_PAYMENT_VERIFYING:0', 'COMPLETED:1e3']) {
      expect(() => listPosition(cursor)).toThrow(RangeError);
    }
  });
});
