import { widgetSignature } from './widget';

export interface SellWidgetParams {
  widgetId: string;
  secret: string;
  /** The customer's own wallet: signed as `address`, and where Mercuryo returns crypto (`refund_address`). */
  refundAddress: string;
  /** The IP address of the customer who will open the widget. */
  ip: string;
  /** The broker's order id. */
  merchantTransactionId: string;
  currency: string;
  network: string;
  /** The crypto amount sold, whole units. */
  amount: string;
  fiatCurrency: string;
  returnUrl?: string;
}

/**
 * The signed sell widget URL of one order (`type=sell`, widget.docs.mercuryo.io off-ramp guide;
 * api-migration-docs 6): crypto, network, amount and payout currency fixed to the offer's;
 * `merchant_transaction_id` is our order id, which Mercuryo echoes on both legs. The v2 signature is
 * the buy widget's, over the customer's wallet (`address`), so the wallet is also the refund address.
 * No `payment_method`: the external card is the default payout and its code is not documented.
 */
export function buildSellWidgetUrl(widgetUrl: string, params: SellWidgetParams): string {
  const query = new URLSearchParams({
    widget_id: params.widgetId,
    type: 'sell',
    currency: params.currency,
    fix_currency: 'true',
    network: params.network,
    amount: params.amount,
    fix_amount: 'true',
    fiat_currency: params.fiatCurrency,
    fix_fiat_currency: 'true',
    address: params.refundAddress,
    refund_address: params.refundAddress,
    merchant_transaction_id: params.merchantTransactionId,
    ...(params.returnUrl ? { return_url: params.returnUrl } : {}),
    signature: widgetSignature(params.refundAddress, params.secret, params.ip, params.merchantTransactionId),
  });
  return `${widgetUrl}/?${query.toString()}`;
}
