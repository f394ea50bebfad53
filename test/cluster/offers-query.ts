import type { OrderDraft } from '../helpers/orders';

/** The offers query matching an order draft, as an integrator asks before ordering (test/helpers/orders.ts `fetchOffers`). */
export function fetchOffersQuery(draft: OrderDraft): string {
  return new URLSearchParams({
    external_user_id: draft.external_user_id,
    currency_from: String(draft.from_currency),
    currency_to: String(draft.to_currency),
    amount_from: draft.from_amount,
    country: draft.country_code,
    payment_method: draft.payment_method,
    ...(draft.state_code ? { state: draft.state_code } : {}),
    ...(typeof draft.ip === 'string' ? { ip: draft.ip } : {}),
  }).toString();
}
