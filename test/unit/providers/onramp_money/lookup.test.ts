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

  test('without a pin: the transaction that got furthest; live ties the oldest, ended ties the newest', async () => {
    const choose = async (...pages: OnrampMoneyTransaction[][]) =>
      (await findOrderTransaction(pagesOf(...pages), 'order-1', undefined))?.orderId;
    // Pages are newest first.
    expect(await choose([tx(3, -2), tx(9, 0, 'other')], [tx(2, 1), tx(1, -1)])).toBe(2);
    expect(await choose([tx(3, -2)], [tx(2, -1)])).toBe(3);
    // Complete beats a newer failure after the transfer (-4 another amount).
    expect(await choose([tx(4, -4), tx(3, 16)])).toBe(3);
    // A transaction anyone opens later through the unsigned widget URL never displaces a paid one.
    expect(await choose([tx(5, 0)], [tx(3, 15)])).toBe(3);
    expect(await choose([tx(6, 0), tx(5, 2)])).toBe(5);
    expect(await choose([tx(7, 1), tx(6, -3)])).toBe(6);
    // Two live ones as far: the oldest, the first the customer started.
    expect(await choose([tx(5, 0), tx(4, 1)], [tx(3, 0)])).toBe(3);
    expect(await choose([tx(5, 2), tx(4, 13)])).toBe(4);
    expect(await choose([tx(9, 0, 'other')])).toBeUndefined();
  });

  test('without a pin, a code Onramp.money does not document fails the lookup unless another transaction was paid', async () => {
    await expect(findOrderTransaction(pagesOf([tx(3, 1), tx(2, 7)]), 'order-1', undefined)).rejects.toThrow(/\(7\)/);
    await expect(findOrderTransaction(pagesOf([tx(3, -1), tx(2, 7)]), 'order-1', undefined)).rejects.toThrow(/\(7\)/);
    // Beside a completed one, an odd status of another transaction does not hide the payment.
    expect((await findOrderTransaction(pagesOf([tx(3, 16), tx(2, 7)]), 'order-1', undefined))?.orderId).toBe(3);
  });
});
