/**
 * Placing a sell order: the use case behind POST /api/off_ramp/orders, once the API has checked the
 * request. Its order id is its idempotency key, as a buy's is.
 */
import { validateForProvider, type ProviderAddressRule } from '../addresses/validate';
import type { SellOrder } from '../domain/sell-order';
import type { OfferStore } from '../offers/store';
import type { OrderTimings } from '../temporal/order-contract';
import type { SellOrderWorkflowInput } from '../temporal/sell-order-contract';
import { OrderRejectedError } from './errors';
import { repeatedOrder } from './idempotency';
import { matchingSellOffer } from './offer-match';
import type { OrderService } from './service';
import { acceptedSellRequestHash, type AcceptedSellOrderRequest } from './sell-request';

/** What a sell order takes from the live offer it is placed against. */
export interface SellOfferTerms {
  /** The fiat payout the offer quoted. */
  amountExpectedTo: string;
  totalFeeAmount?: string;
  /** The end user's IP address given with the offers request. */
  ip?: string;
}

export interface SellPlacementDeps {
  orders: OrderService;
  timings: OrderTimings;
  /** The live sell offer the request matches; throws NoLiveOfferError when none does. */
  matchOffer(request: AcceptedSellOrderRequest): Promise<SellOfferTerms>;
  addressRuleOf?: (providerCode: string) => ProviderAddressRule | undefined;
}

export async function placeSellOrder(deps: SellPlacementDeps, request: AcceptedSellOrderRequest): Promise<SellOrder> {
  const hash = acceptedSellRequestHash(request);
  const repeated = repeatedOrder(await deps.orders.getSell(request.orderId), request.integratorId, hash);
  if (repeated) return repeated;
  const offer = await deps.matchOffer(request);
  const refund = validateForProvider(
    request.crypto.network,
    request.body.refund_wallet_address,
    {},
    deps.addressRuleOf?.(request.body.provider_code),
  );
  if (!refund.valid) throw new OrderRejectedError('invalid_wallet_address', `refund_wallet_address: ${refund.reason ?? 'invalid address'}`);
  return deps.orders.createSell(sellOrderWorkflowInput(request, offer, hash, deps.timings));
}

export function sellOrderWorkflowInput(
  { orderId, integratorId, body, crypto, fiat, fromAmount }: AcceptedSellOrderRequest,
  offer: SellOfferTerms,
  requestHash: string,
  timings: OrderTimings,
): SellOrderWorkflowInput {
  return {
    kind: 'off_ramp',
    orderId,
    integratorId,
    providerCode: body.provider_code,
    requestHash,
    network: crypto.network,
    timings,
    request: {
      from_currency: crypto.id,
      from_amount: fromAmount,
      to_currency: fiat.id,
      to_amount: offer.amountExpectedTo,
      refund_wallet_address: body.refund_wallet_address,
      payout_method: body.payout_method,
      country_code: body.country_code,
      state_code: body.state_code,
      external_user_id: body.external_user_id,
      external_order_id: body.external_order_id,
      return_url: body.return_url,
      ip: body.ip ?? offer.ip,
      user_agent: body.user_agent,
      extras: body.extras ?? {},
    },
    ...(offer.totalFeeAmount === undefined ? {} : { quote: { total_fee_amount: offer.totalFeeAmount } }),
  };
}

/** The live sell offer (GET /api/off_ramp/offers, kept in `offers`) a request matches, as the order takes it. */
export function sellOfferMatcher(offers: OfferStore): SellPlacementDeps['matchOffer'] {
  return async ({ integratorId, body, crypto, fiat, fromAmount, state }) => {
    const offer = await matchingSellOffer(offers, {
      integratorId,
      externalUserId: body.external_user_id,
      providerCode: body.provider_code,
      crypto: crypto.id,
      fiat: fiat.id,
      cryptoAmount: fromAmount,
      country: body.country_code,
      state,
      payoutMethod: body.payout_method,
    });
    return {
      amountExpectedTo: offer.payoutAmount,
      totalFeeAmount: offer.totalFeeAmount,
      ...(offer.ip === undefined ? {} : { ip: offer.ip }),
    };
  };
}
