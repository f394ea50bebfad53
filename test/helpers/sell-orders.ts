/** Sell (off-ramp) orders through the real API: a live sell offer (the sandbox's unless told), then the order placed against it. */
import { callApi, type JsonResponse } from './http';

export const SELL_ETH = 14;
export const SELL_EUR = 2;
export const SELL_REFUND_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

let serial = 0;

/** Asks `provider`'s sell offers for 0.5 ETH in EUR in DE (SEPA), then places the order against the offer with `overrides`. */
export async function offerThenSellOrder(
  apiUrl: string,
  overrides: Record<string, unknown> = {},
  provider = 'sandbox',
): Promise<{ offer: Record<string, any>; request: Record<string, unknown>; created: JsonResponse }> {
  const user = `seller-${++serial}-${process.pid}`;
  const offers = await callApi(
    apiUrl,
    `/api/off_ramp/offers?${new URLSearchParams({
      external_user_id: user,
      currency_from: String(SELL_ETH),
      currency_to: String(SELL_EUR),
      amount_from: '0.5',
      country: 'DE',
      provider_codes: provider,
    }).toString()}`,
  );
  if (offers.status !== 200 || !offers.body[provider])
    throw new Error(`no ${provider} sell offer: ${offers.status} ${JSON.stringify(offers.body)}`);
  const request = {
    provider_code: provider,
    from_currency: SELL_ETH,
    to_currency: SELL_EUR,
    from_amount: '0.5',
    refund_wallet_address: SELL_REFUND_ADDRESS,
    payout_method: 'sepa',
    country_code: 'DE',
    external_user_id: user,
    external_order_id: `sell-${serial}-${Date.now()}`,
    ...overrides,
  };
  const created = await callApi(apiUrl, '/api/off_ramp/orders', { body: request });
  return { offer: offers.body[provider], request, created };
}
