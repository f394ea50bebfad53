/**
 * Placing an order: the use case behind POST /api/on_ramp/orders, once the API has checked the
 * request. The request's order id is its idempotency key, so a repeat answers with the order it made.
 */
import { validateForProvider, type ProviderAddressRule } from '../addresses/validate';
import type { Order } from '../domain/order';
import type { OfferStore } from '../offers/store';
import type { OrderTimings } from '../temporal/order-contract';
import { OrderRejectedError } from './errors';
import { acceptedRequestHash, repeatedOrder } from './idempotency';
import { matchingOffer } from './offer-match';
import type { AcceptedOrderRequest } from './request';
import type { OrderService } from './service';
import { orderWorkflowInput } from './workflow-input';

export interface OrderPlacementDeps {
  orders: OrderService;
  offers: OfferStore;
  timings: OrderTimings;
  /** The provider's own wallet address rule, where it has one (ProviderAdapter.validateAddress). */
  addressRuleOf?: (providerCode: string) => ProviderAddressRule | undefined;
}

/**
 * The order the request names: the one it created before (OrderRejectedError `idempotency_conflict`
 * when the request differs), or a new one against the live offer it matches (NoLiveOfferError when
 * none does), once the provider order exists.
 */
export async function placeOrder(
  { orders, offers, timings, addressRuleOf }: OrderPlacementDeps,
  request: AcceptedOrderRequest,
): Promise<Order> {
  const hash = acceptedRequestHash(request);
  const repeated = repeatedOrder(await orders.get(request.orderId), request.integratorId, hash);
  if (repeated) return repeated;
  const offer = await matchingOffer(offers, request);
  // The workflow checks the address again; refusing here first starts nothing (no workflow, no id reservation).
  const address = validateForProvider(
    request.crypto.network ?? '',
    request.body.wallet_address,
    {},
    addressRuleOf?.(request.body.provider_code),
  );
  if (!address.valid) throw new OrderRejectedError('invalid_wallet_address', address.reason ?? 'invalid wallet address');
  return orders.create(orderWorkflowInput(request, offer, hash, timings));
}
