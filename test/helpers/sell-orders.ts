/** Sell (off-ramp) orders through the real API: a live sell offer (the sandbox's unless told), then the order placed against it. */
import { callApi, type JsonResponse } from './http';

export const SELL_ETH = 14;
export const SELL_EUR = 2;
export const SELL_REFUND_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** Where and what a customer sells to a provider: the offer's query and the order's fields. */
export interface SellMarket {
  /** The crypto currency sold (a currency ID). */
  crypto: number;
  /** The fiat currency paid out (a currency ID). */
  fiat: number;
  amount: string;
  country: string;
  payoutMethod: string;
  /** A refund address valid on the crypto currency's network. */
  refundAddress: string;
  /** The customer's address, for a provider that signs its widget for it (Mercuryo). */
  ip?: string;
}

/** 0.5 ETH for EUR in Germany, paid out by SEPA. */
export const EUR_SELL_MARKET: SellMarket = {
  crypto: SELL_ETH,
  fiat: SELL_EUR,
  amount: '0.5',
  country: 'DE',
  payoutMethod: 'sepa',
  refundAddress: SELL_REFUND_ADDRESS,
};

let serial = 0;

/** Asks `provider`'s sell offers in `market`, then places the order against the offer with `overrides`. */
export async function offerThenSellOrder(
  apiUrl: string,
  overrides: Record<string, unknown> = {},
  provider = 'sandbox',
  market: SellMarket = EUR_SELL_MARKET,
): Promise<{ offer: Record<string, any>; request: Record<string, unknown>; created: JsonResponse }> {
  const user = `seller-${++serial}-${process.pid}`;
  const offers = await callApi(
    apiUrl,
    `/api/off_ramp/offers?${new URLSearchParams({
      external_user_id: user,
      currency_from: String(market.crypto),
      currency_to: String(market.fiat),
      amount_from: market.amount,
      country: market.country,
      provider_codes: provider,
      include_errors: 'true',
      ...(market.ip === undefined ? {} : { ip: market.ip }),
    }).toString()}`,
  );
  if (offers.status !== 200 || !offers.body[provider] || offers.body[provider].error)
    throw new Error(`no ${provider} sell offer: ${offers.status} ${JSON.stringify(offers.body)}`);
  const request = {
    provider_code: provider,
    from_currency: market.crypto,
    to_currency: market.fiat,
    from_amount: market.amount,
    refund_wallet_address: market.refundAddress,
    payout_method: market.payoutMethod,
    country_code: market.country,
    external_user_id: user,
    external_order_id: `sell-${serial}-${Date.now()}`,
    ...(market.ip === undefined ? {} : { ip: market.ip }),
    ...overrides,
  };
  const created = await callApi(apiUrl, '/api/off_ramp/orders', { body: request });
  return { offer: offers.body[provider], request, created };
}
