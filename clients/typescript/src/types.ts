/**
 * The API's types, named: aliases of the generated OpenAPI types (./openapi.ts). Request types widen
 * currency IDs to `number` and country and state codes to `string`, since they come from the
 * dictionaries at run time; every field name stays exactly the document's.
 */
import type { components, operations } from './openapi.js';

type Schemas = components['schemas'];
type QueryOf<K extends keyof operations> = operations[K]['parameters']['query'];
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

/** One order of an export in JSON lines: the order, its provider, and the total fee its offer quoted (when kept). */
export type ExportedOrder = Order & { provider_code: string; quoted_fee_amount?: string };

/** An offer with the provider it is from. */
export type RankedOffer = Offer & { provider_code: string };

/** A provider left out of the offers, and why. */
export type LeftOutProvider = OfferError['error'] & { provider_code: string };

/** The offers, best first (most crypto expected, or most crypto: OnrampClient.offers), and the providers left out with their reasons. */
export interface RankedOffers {
  offers: RankedOffer[];
  leftOut: LeftOutProvider[];
}
