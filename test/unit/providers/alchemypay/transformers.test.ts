import { currencyDictionary } from '../../../../src/domain/currencies';
import { AlchemypayOrderSchema } from '../../../../src/providers/alchemypay/schemas';
import { fromLookup } from '../../../../src/providers/alchemypay/transformers';

const ORDER = {
  orderNo: '1418493255000000368',
  merchantOrderNo: 'order-1',
  status: 'PAY_SUCCESS',
  crypto: 'USDT',
  network: 'TRX',
  address: 'TGNMkik3nPaioVJdkE7qEixWr9cUvsyT5g',
  fiat: 'GBP',
  amount: '100.00000000',
  createTime: '2025-10-09 08:53:20',
};

describe('the order query', () => {
  test('reads createTime as when Alchemy Pay made the order (UTC)', () => {
    expect(fromLookup('order-1', AlchemypayOrderSchema.parse(ORDER), currencyDictionary)).toMatchObject({
      orderId: 'order-1',
      status: 'processing',
      providerOrderCreatedAt: '2025-10-09T08:53:20.000Z',
    });
  });

  test('a createTime that is not a time is left out; the order is still read', () => {
    for (const createTime of ['09/10/2025', 1760000000000, null]) {
      const snapshot = fromLookup('order-1', AlchemypayOrderSchema.parse({ ...ORDER, createTime }), currencyDictionary);
      expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
      expect(snapshot.orderId).toBe('order-1');
    }
  });

  test('no order yet reports no creation time', () => {
    expect(fromLookup('order-1', undefined, currencyDictionary)).not.toHaveProperty('providerOrderCreatedAt');
  });
});
