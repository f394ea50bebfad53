import { createHash } from 'node:crypto';

export interface WidgetParams {
  widgetId: string;
  secret: string;
  /** The customer's wallet address. */
  address: string;
  /** The IP address of the customer who will open the widget. */
  ip: string;
  /** The broker's order id. */
  merchantTransactionId: string;
  currency: string;
  network: string;
  fiatCurrency: string;
  fiatAmount: string;
  paymentMethod: string;
  returnUrl?: string;
}

/** `"v2:" + hex(SHA-512(address + secret + ip + merchant_transaction_id))`, no separators. */
export function widgetSignature(address: string, secret: string, ip: string, merchantTransactionId: string): string {
  return `v2:${createHash('sha512').update(`${address}${secret}${ip}${merchantTransactionId}`).digest('hex')}`;
}

/**
 * The signed widget URL of one purchase. Currency, network and amounts are fixed so the customer
 * buys what the broker's offer quoted; `merchant_transaction_id` is the broker's order id, so the
 * same order always yields the same URL and Mercuryo's transaction can be looked up by it.
 */
export function buildWidgetUrl(widgetUrl: string, params: WidgetParams): string {
  const query = new URLSearchParams({
    widget_id: params.widgetId,
    type: 'buy',
    currency: params.currency,
    fix_currency: 'true',
    network: params.network,
    address: params.address,
    fiat_currency: params.fiatCurrency,
    fix_fiat_currency: 'true',
    fiat_amount: params.fiatAmount,
    fix_fiat_amount: 'true',
    payment_method: params.paymentMethod,
    merchant_transaction_id: params.merchantTransactionId,
    ...(params.returnUrl ? { return_url: params.returnUrl } : {}),
    signature: widgetSignature(params.address, params.secret, params.ip, params.merchantTransactionId),
  });
  return `${widgetUrl}/?${query.toString()}`;
}
