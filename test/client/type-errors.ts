/**
 * Compiled by `npm run typecheck` (the root tsconfig includes test/), never run: each
 * `@ts-expect-error` line must fail to compile, or the typecheck fails. The client's types come from
 * the OpenAPI document, so a field name the API does not have is a compile error.
 */
import type { CreateOrderRequest, OffersQuery, OnrampClient, Order } from '../../clients/typescript/src';

export const order: CreateOrderRequest = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100',
  wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  payment_method: 'card',
  country_code: 'GB',
  external_user_id: 'u1',
  external_order_id: 'o1',
};

export const misspelt: CreateOrderRequest = {
  ...order,
  // @ts-expect-error `wallet` is not a field of the order request (it is `wallet_address`).
  wallet: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
};

export const offers: OffersQuery = {
  external_user_id: 'u1',
  currency_from: 1,
  currency_to: 13,
  // @ts-expect-error the offers query takes `amount_from`, not `amount`.
  amount: '100',
  country: 'GB',
};

export function readsOnlyRealFields(o: Order): string {
  // @ts-expect-error an order has `wallet_address`, not `walletAddress`.
  return o.walletAddress;
}

export async function callsWithRealFields(client: OnrampClient): Promise<void> {
  // @ts-expect-error the search filter is `external_order_id`.
  await client.orders({ order_id: 'o1' });
  // @ts-expect-error `status` is one of the API's statuses.
  await client.waitForStatus('sandbox', 'id', 'completed');
}
