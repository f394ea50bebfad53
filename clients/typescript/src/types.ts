/**
 * The API's types, named: aliases of the generated OpenAPI types (./openapi.ts). Request types widen
 * currency IDs to `number` and country and state codes to `string`, since they come from the
 * dictionaries at run time; every field name stays exactly the document's.
 */
import type { components, operations } from './openapi.js';

type Schemas = components['schemas'];
type QueryOf<K extends keyof operations> = operations[K]['parameters']['query'];
type BodyOf<K extends keyof operations> = NonNullable<operations[K]['requestBody']>['content']['application/json'];
/** `T` with currency IDs as numbers and country and state codes as strings. */
type Loose<T> = {
  [K in keyof T]: K extends `${string}currenc${string}`
    ? number
    : K extends 'country' | 'country_code' | 'state' | 'state_code'
      ? string
      : T[K];
};

export type Currency = Schemas['Currency'];
export type Country = Schemas['Country'];
export type ServedCountry = Schemas['ServedCountry'];
export type CurrencyPairs = Schemas['CurrencyPairs'];
export type PaymentMethod = Schemas['PaymentMethod'];
export type PaymentMethodFee = Schemas['PaymentMethodFee'];
export type Provider = Schemas['Provider'];
export type Offer = Schemas['Offer'];
export type OfferError = Schemas['OfferError'];
export type Order = Schemas['Order'];
export type OrderStatus = Schemas['OrderStatus'];
export type OrderKind = Schemas['OrderKind'];
export type AnyOrderStatus = Schemas['AnyOrderStatus'];
/** An order of a list (the search, the export): a buy (`kind: "on_ramp"`) or a sell (`kind: "off_ramp"`). */
export type ListedOrder = Schemas['ListedOrder'];
export type OrderSearchPage = Schemas['OrderSearchPage'];
export type ValidateAddressResult = Schemas['ValidateAddressResult'];
export type WebhookTestResult = Schemas['WebhookTestResult'];
export type Problem = Schemas['Problem'];
export type FieldError = Schemas['FieldError'];

export type CreateOrderRequest = Loose<Schemas['CreateOrderRequest']>;
export type ValidateAddressRequest = Loose<Schemas['ValidateAddressRequest']>;
export type OffersQuery = Loose<Omit<QueryOf<'getOffers'>, 'include_errors'>>;
export type PaymentMethodsQuery = Loose<QueryOf<'listPaymentMethods'>>;
export type CurrencyPairsQuery = Loose<QueryOf<'listCurrencyPairs'>>;
export type ProvidersQuery = Loose<QueryOf<'listProviders'>>;
export type ServedCountriesQuery = NonNullable<QueryOf<'listServedCountries'>>;
export type OrderSearchQuery = NonNullable<QueryOf<'searchOrders'>>;
export type OrderExportQuery = Omit<QueryOf<'exportOrders'>, 'format'>;

/** One order of an export in JSON lines: the order with its kind, its provider, when it was requested, and the total fee its offer quoted (when kept). */
export type ExportedOrder = ListedOrder & { provider_code: string; requested_at: string; quoted_fee_amount?: string };

/** An offer with the provider it is from. */
export type RankedOffer = Offer & { provider_code: string };

/** A provider left out of the offers, and why. */
export type LeftOutProvider = OfferError['error'] & { provider_code: string };

/** The offers, best first (most crypto expected, or most crypto: OnrampClient.offers), and the providers left out with their reasons. */
export interface RankedOffers {
  offers: RankedOffer[];
  leftOut: LeftOutProvider[];
}

// ---- the off-ramp (/api/off_ramp: the customer sells crypto for fiat) ----------------------------

export type PayoutMethod = Schemas['PayoutMethod'];
export type SellOffer = Schemas['SellOffer'];
export type SellOfferError = Schemas['SellOfferError'];
export type SellOrder = Schemas['SellOrder'];
export type SellOrderStatus = Schemas['SellOrderStatus'];
/** Where the customer sends the crypto: the provider's word alone, and never changed once given (docs/api.md). */
export type Deposit = Schemas['Deposit'];

export type CreateSellOrderRequest = Loose<Schemas['CreateSellOrderRequest']>;
export type SellOffersQuery = Loose<Omit<QueryOf<'getSellOffers'>, 'include_errors'>>;
export type SellCountriesQuery = NonNullable<QueryOf<'listOffRampCountries'>>;
export type SellCurrencyPairsQuery = Loose<QueryOf<'listOffRampCurrencyPairs'>>;
export type PayoutMethodsQuery = Loose<NonNullable<QueryOf<'listPayoutMethods'>>>;
export type SellProvidersQuery = Loose<QueryOf<'listOffRampProviders'>>;

/** A sell offer with the provider it is from. */
export type RankedSellOffer = SellOffer & { provider_code: string };

/** A provider left out of the sell offers, and why (`limits` amounts in the crypto currency). */
export type LeftOutSellProvider = SellOfferError['error'] & { provider_code: string };

/** The sell offers, the highest payout first (OnrampClient.sellOffers), and the providers left out with their reasons. */
export interface RankedSellOffers {
  offers: RankedSellOffer[];
  leftOut: LeftOutSellProvider[];
}

// ---- the operator API (/api/operator, behind an operator key: OperatorClient) ---------------------

/** Why a review is in the queue: `payment_differs`, `report_refused`, `open_too_long`, `reconciliation_mismatch`, `webhook_not_delivered`. */
export type QueueReason = Schemas['QueueReason'];
export type OperatorActionName = Schemas['OperatorActionName'];
export type ReviewSubject = Schemas['ReviewSubject'];
export type QueuedReview = Schemas['QueuedReview'];
export type ReviewQueue = Schemas['ReviewQueue'];
export type ReviewReasonEntry = Schemas['ReviewReasonEntry'];
export type ReviewRecord = Schemas['ReviewRecord'];
/** An operator action as the review's audit keeps it: who, when, the note, and its outcome once known. */
export type AuditEntry = Schemas['AuditEntry'];
export type ActionOutcome = NonNullable<AuditEntry['outcome']>;
/** A resent webhook: the audit entry with its outcome, and what became of the message. */
export type OperatorResendResult = Schemas['OperatorResendResult'];
export type DailySummary = Schemas['DailySummary'];
export type DailySummaryRow = Schemas['DailySummaryRow'];
export type DailySummaryTotal = Schemas['DailySummaryTotal'];
export type CryptoDelivered = Schemas['CryptoDelivered'];

/** The review queue's filters and page; `limit` from 1 to 100 (default 50). */
export type ReviewQueueQuery = NonNullable<QueryOf<'listReviewQueue'>>;
/** What an acknowledgement says: the note (kept in the audit), and the reasons it closes (absent: every open one). */
export type AcknowledgeRequest = BodyOf<'acknowledgeReview'>;
/** The daily summary's filters: one integrator's orders, one provider's. */
export type DailySummaryFilters = Omit<QueryOf<'getDailySummary'>, 'date' | 'format'>;
