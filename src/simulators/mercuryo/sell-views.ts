import type { SimOperation } from './purchase';
import type { SimSale } from './sell-sale';

/** Mercuryo writes times as "YYYY-MM-DD hh:mm:ss" (UTC) beside Unix seconds. */
const mercuryoTime = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 19);
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

const times = (operation: SimOperation) => ({
  created_at: mercuryoTime(operation.createdAt),
  updated_at: mercuryoTime(operation.updatedAt),
});

/**
 * The sale as one item of `GET /sdk-partner/transactions`: its legs keyed by type, as a sell lookup
 * holds them in the one public sample (gemwalletcom/core `transaction_sell_complete.json`): the
 * deposit leg's `transaction_id` is the sell leg's id; the deposit leg has the hash and an address.
 */
export function saleItem(sale: SimSale, widgetId: string): Record<string, Record<string, unknown>> {
  const item: Record<string, Record<string, unknown>> = {
    sell: {
      id: sale.sell.id,
      transaction_id: sale.sell.id,
      widget_id: widgetId,
      merchant_transaction_id: sale.merchantTransactionId,
      fiat_currency: sale.fiatCurrency,
      fiat_amount: sale.fiatAmount,
      currency: sale.currency,
      amount: sale.amount,
      status: sale.sell.status,
      ...times(sale.sell),
    },
  };
  if (sale.deposit) {
    item.deposit = {
      id: sale.deposit.id,
      transaction_id: sale.sell.id,
      widget_id: widgetId,
      merchant_transaction_id: sale.merchantTransactionId,
      hash: sale.deposit.hash ?? null,
      url: null,
      address: sale.depositAddress,
      currency: sale.currency,
      amount: sale.amount,
      status: sale.deposit.status,
      ...times(sale.deposit),
    };
  }
  return item;
}

/** The callback of one leg's new status (`type` `sell` with `payment_method` `card`, or `deposit` with none). */
export function saleCallbackBody(sale: SimSale, leg: 'sell' | 'deposit'): Record<string, unknown> {
  const operation = leg === 'sell' ? sale.sell : sale.deposit!;
  const data: Record<string, unknown> = {
    id: operation.id,
    merchant_transaction_id: sale.merchantTransactionId,
    type: leg,
    status: operation.status,
    amount: sale.amount,
    currency: sale.currency,
    user: { uuid4: sale.userUuid, country_code: null },
    created_at: mercuryoTime(operation.createdAt),
    updated_at: mercuryoTime(operation.updatedAt),
    created_at_ts: unix(operation.createdAt),
    updated_at_ts: unix(operation.updatedAt),
  };
  if (leg === 'sell') {
    Object.assign(data, {
      payment_method: 'card',
      fiat_amount: sale.fiatAmount,
      fiat_currency: sale.fiatCurrency,
      card: { number: '3333' },
    });
  } else {
    data.tx = { id: sale.deposit?.hash ?? null, address: sale.depositAddress };
  }
  return { data };
}
