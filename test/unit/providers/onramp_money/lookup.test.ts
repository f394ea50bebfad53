import { findOrderTransaction } from '../../../../src/providers/onramp_money/lookup';
import type { OnrampMoneyTransaction } from '../../../../src/providers/onramp_money/schemas';

const tx = (orderId: number, status: number, merchantRecognitionId = 'order-1'): OnrampMoneyTransaction => ({
  orderId,
  status,
  merchantRecognitionId,
});

const pagesOf = (...pages: OnrampMoneyTransaction[][]) => pages;

describe('findOrderTransaction', () => {
  test('a pinned provider order id finds that transaction, never a newer one of the same order', async () => {
    const pages = () => pagesOf([tx(3, 15), tx(9, 0, 'other')], [tx(2, -1)]);
    expect((await findOrderTransaction(pages(), 'order-1', '2'))?.orderId).toBe(2);
    expect((await findOrderTransaction(pages(), 'order-1', '3'))?.orderId).toBe(3);
    expect(await findOrderTransaction(pages(), 'order-1', '7')).toBeUndefined();
  });

  test('without a pin: the newest transaction that did not end unpaid, else the newest', async () => {
    expect(
      (await findOrderTransaction(pagesOf([tx(3, -2), tx(9, 0, 'other')], [tx(2, 1), tx(1, -1)]), 'order-1', undefined))?.orderId,
    ).toBe(2);
    expect((await findOrderTransaction(pagesOf([tx(3, -2)], [tx(2, -1)]), 'order-1', undefined))?.orderId).toBe(3);
    expect((await findOrderTransaction(pagesOf([tx(4, -4), tx(3, 16)]), 'order-1', undefined))?.orderId).toBe(4);
    expect(await findOrderTransaction(pagesOf([tx(9, 0, 'other')]), 'order-1', undefined)).toBeUndefined();
  });
});
