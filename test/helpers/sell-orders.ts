/** Sell (off-ramp) orders through the real API: a live sandbox sell offer, then the order placed against it. */
import { callApi, type JsonResponse } from './http';

export const SELL_ETH = 14;
export const SELL_EUR = 2;
export const SELL_REFUND_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

let serial = 0;

/** Asks the sandbox's sell offers for 0.5 ETH in EUR in DE, then places the order against the offer with `overrides`. */
export async function offerThenSellOrder(
  apiUrl: string,
  overrides: Record<string, unknown> = {},
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
      provider_codes: 'sandbox',
    }).toString()}`,
  );
  if (offers.status !== 200 || !offers.body.sandbox)
    throw new Error(`no sandbox sell offer: ${offers.status} ${JSON.stringify(offers.body)}`);
  const request = {
    provider_code: 'sandbox',
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
  return { offer: offers.body.sandbox, request, created };
}
