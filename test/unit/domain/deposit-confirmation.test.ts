import { depositConfirmationRefusal } from '../../../src/domain/deposit-confirmation';
import { SELL_ORDER_STATUSES } from '../../../src/domain/sell-order-status';

const HASH = `0x${'ab'.repeat(32)}`;
const OTHER = `0x${'cd'.repeat(32)}`;
const DEPOSIT = { address: '0x52908400098527886e0f7030069857d2e4169ee7', network: 'ethereum', amount: '0.5' };
const confirmed = { transaction_hash: HASH, confirmed_at: '2026-11-30T10:00:00.000Z' };

describe('the deposit confirmation rule', () => {
  test.each(SELL_ORDER_STATUSES)('a confirmed order (%s) takes its transaction again and refuses any other', (status) => {
    const order = { status, deposit: DEPOSIT, deposit_confirmation: confirmed };
    expect(depositConfirmationRefusal(order, HASH, undefined)).toBeUndefined();
    expect(depositConfirmationRefusal(order, OTHER, undefined)).toMatchObject({ type: 'deposit_already_confirmed' });
  });

  test('a transaction being confirmed counts as confirmed', () => {
    const order = { status: 'waiting_for_deposit' as const, deposit: DEPOSIT };
    expect(depositConfirmationRefusal(order, HASH, HASH)).toBeUndefined();
    expect(depositConfirmationRefusal(order, OTHER, HASH)).toMatchObject({ type: 'deposit_already_confirmed' });
  });

  test.each(SELL_ORDER_STATUSES)('unconfirmed, only an order waiting with its deposit shown takes one (%s)', (status) => {
    const verdict = depositConfirmationRefusal({ status, deposit: DEPOSIT }, HASH, undefined);
    if (status === 'waiting_for_deposit') expect(verdict).toBeUndefined();
    else expect(verdict).toEqual({ type: 'deposit_not_awaited', message: `the order is ${status}, not waiting for its deposit` });
  });

  test('no deposit shown, or no order yet: nothing to confirm', () => {
    expect(depositConfirmationRefusal({ status: 'waiting_for_deposit' }, HASH, undefined)).toEqual({
      type: 'deposit_not_awaited',
      message: 'the order shows no deposit address yet',
    });
    expect(depositConfirmationRefusal(undefined, HASH, undefined)).toMatchObject({ type: 'deposit_not_awaited' });
  });
});
