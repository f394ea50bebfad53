/**
 * Compiled by `npm run typecheck` (the root tsconfig includes test/), never run: each
 * `@ts-expect-error` line must fail to compile, or the typecheck fails. The client's types come from
 * the OpenAPI document, so a field name the API does not have is a compile error.
 */
import type {
  CreateOrderRequest,
  CreateSellOrderRequest,
  OffersQuery,
  OnrampClient,
  OperatorClient,
  Order,
  ReviewRecord,
  SellOrder,
  WebhookEvent,
} from '../../clients/typescript/src';

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

export async function operatesWithRealFields(operator: OperatorClient): Promise<void> {
  // @ts-expect-error the queue's filter is `reason`, one of the queue's reasons.
  await operator.reviewQueue({ reason: 'paid_less' });
  // @ts-expect-error an acknowledgement needs its note.
  await operator.acknowledge('id', { reasons: ['payment_differs'] });
  // @ts-expect-error cancelling an order needs a note.
  await operator.cancelOrder('id');
  // @ts-expect-error the summary's filter is `integrator_id`.
  await operator.dailySummary('2026-11-29', { integrator: 'dev' });
}

export function readsOnlyRealReviewFields(record: ReviewRecord): string {
  // @ts-expect-error a review has `review_id`, not `id`.
  return record.id;
}

// @ts-expect-error the operator client takes an operator key, never an integrator's `apiKey`.
export const mixed: ConstructorParameters<typeof OperatorClient>[0] = { baseUrl: 'http://localhost:3000', apiKey: 'k' };

export const sell: CreateSellOrderRequest = {
  provider_code: 'sandbox',
  from_currency: 14,
  to_currency: 2,
  from_amount: '0.5',
  refund_wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
  payout_method: 'sepa',
  country_code: 'DE',
  external_user_id: 'u1',
  external_order_id: 's1',
};

export const sellWithBuyFields: CreateSellOrderRequest = {
  ...sell,
  // @ts-expect-error a sell order has a `refund_wallet_address`, no `wallet_address`.
  wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
};

export function readsTheDeposit(o: SellOrder): string | undefined {
  // @ts-expect-error the deposit is `deposit.address`, not `deposit_address`.
  return o.deposit_address;
}

export async function sellsWithRealFields(client: OnrampClient): Promise<void> {
  // @ts-expect-error the sell offers query takes `amount_from` (the crypto sold), not `amount`.
  await client.sellOffers({ external_user_id: 'u1', currency_from: 14, currency_to: 2, amount: '0.5', country: 'DE' });
  // @ts-expect-error `pending` is a buy order's status; a sell order waits for its deposit.
  await client.waitForSellStatus('sandbox', 'id', 'pending');
}

export function readsSellEvents(event: WebhookEvent): string | undefined {
  if (event.type !== 'order.status_changed') return undefined;
  // @ts-expect-error the event may be a buy order's, which has no deposit: narrow on `data.kind` first.
  const address: string | undefined = event.data.deposit?.address;
  if (event.data.kind === 'off_ramp') return event.data.deposit?.address ?? address;
  return event.data.wallet_address;
}
