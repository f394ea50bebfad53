import { CALLBACK_PAYMENT_METHOD, type SimOperation, type SimPurchase } from './purchase';

/** Mercuryo writes times as "YYYY-MM-DD hh:mm:ss" (UTC) beside Unix seconds. */
const mercuryoTime = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 19);
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

const common = (purchase: SimPurchase, operation: SimOperation, widgetId: string) => ({
  id: operation.id,
  transaction_id: purchase.transactionId,
  widget_id: widgetId,
  merchant_transaction_id: purchase.merchantTransactionId,
  currency: purchase.currency,
  amount: purchase.cryptoAmount,
  status: operation.status,
  created_at: mercuryoTime(operation.createdAt),
  updated_at: mercuryoTime(operation.updatedAt),
});

const explorerUrl = (hash: string) => `https://www.blockchair.com/search?q=${hash}&from=mercuryo`;

/** One item of `GET /sdk-partner/transactions`: the purchase's operations keyed by type. */
export function transactionItem(purchase: SimPurchase, widgetId: string): Record<string, Record<string, unknown>> {
  const item: Record<string, Record<string, unknown>> = {
    [purchase.paymentType]: {
      ...common(purchase, purchase.payment, widgetId),
      fiat_currency: purchase.fiatCurrency,
      fiat_amount: purchase.fiatAmount,
      ...(purchase.paymentType === 'buy' ? {} : { payment_method: purchase.paymentMethod }),
      card_country: null,
    },
  };
  const withdraw = purchase.withdraw;
  if (withdraw) {
    item.withdraw = {
      ...common(purchase, withdraw, widgetId),
      hash: withdraw.hash ?? null,
      url: withdraw.hash ? explorerUrl(withdraw.hash) : null,
      address: purchase.address,
    };
  }
  return item;
}

/** The body of the callback for one operation's new status. */
export function callbackBody(purchase: SimPurchase, leg: 'payment' | 'withdraw'): Record<string, unknown> {
  const operation = leg === 'payment' ? purchase.payment : purchase.withdraw!;
  const data: Record<string, unknown> = {
    id: operation.id,
    merchant_transaction_id: purchase.merchantTransactionId,
    type: leg === 'payment' ? 'buy' : 'withdraw',
    status: operation.status,
    amount: purchase.cryptoAmount,
    currency: purchase.currency,
    fiat_amount: purchase.fiatAmount,
    fiat_currency: purchase.fiatCurrency,
    user: { uuid4: purchase.userUuid, country_code: null },
    created_at: mercuryoTime(operation.createdAt),
    updated_at: mercuryoTime(operation.updatedAt),
    created_at_ts: unix(operation.createdAt),
    updated_at_ts: unix(operation.updatedAt),
  };
  if (leg === 'payment') {
    data.payment_method = CALLBACK_PAYMENT_METHOD[purchase.paymentType];
    if (purchase.paymentType === 'buy') data.card = { number: '3333' };
  } else {
    data.tx = { id: purchase.withdraw?.hash ?? null, address: purchase.address };
  }
  return { data };
}
