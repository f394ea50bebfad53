/**
 * The zod schemas of every request and response of the API: the one source of the OpenAPI document
 * (src/api/openapi/document.ts). The schemas the routes parse their input with live here (or, for an
 * order's body, in src/orders/request.ts), and the documented schema of each extends the parsed one
 * only where the route checks a field by hand, such as currency IDs; so do the schemas whose
 * `z.infer` types the routes answer with (Currency, Country, ProviderInfo, Offer, Order, Problem).
 *
 * OpenAPI names, descriptions and examples are zod's own `.meta()`, which zod-to-openapi reads as it
 * reads `.openapi()`. (`.openapi()` from extendZodWithOpenApi exists only on schemas built after the
 * extension ran, and most of these come from modules loaded before this one.)
 */
import { z } from 'zod';
import { COUNTRIES, CountrySchema, StateSchema } from '../domain/countries';
import { currencyDictionary } from '../domain/currencies';
import { CurrencySchema } from '../domain/currency';
import { ExternalIdSchema } from '../domain/external-id';
import { DECIMAL_AMOUNT_PATTERN } from '../domain/money';
import { BROKER_EXTRAS_KEYS, OrderSchema, OrderStatusSchema } from '../domain/order';
import { ANY_ORDER_STATUSES, ORDER_KINDS } from '../domain/order-kind';
import { OfferErrorSchema, OfferSchema } from '../offers/calculate';
import { SellOfferErrorSchema, SellOfferSchema } from '../offers/sell-calculate';
import { CreateOrderBodySchema, orderIdFor } from '../orders/request';
import { EXTRAS_LIMITS } from '../orders/extras-limits';
import { UNSAFE_QUERY_CHARACTERS } from '../orders/visibility-query';
import { CUSTOMER_URL_MAX_BYTES } from '../providers/kit/url';
import { ProviderInfoSchema } from '../providers/types';
import { EXPORT_FORMATS } from './order-export-format';
import { SUMMARY_FORMATS } from './daily-summary-format';
import { UTC_DATE_PATTERN, utcDayWindow } from '../domain/daily-summary';
import { IntegratorSchema } from '../config/integrators';
import { FieldErrorSchema, PROBLEM_CODES, ProblemSchema, type ProblemCode } from './problem';
import { OfferRankingSchema } from '../ranking/rank';

// ---- shared pieces -------------------------------------------------------------------------------

/** Currency IDs as the routes accept them (src/api/params.ts): positive integers of at most 9 digits. */
export const CurrencyIdSchema = z.number().int().min(1).max(999_999_999);

const idsOf = (type: 'fiat' | 'crypto') => currencyDictionary.currencies.filter((c) => c.currency_type === type).map((c) => c.id);

/**
 * The currency parameters list the dictionary's IDs, so that clients (and schemathesis) see which
 * exist. Another integer is `400 unknown_currency`, a ticker `400 ticker_not_allowed`, a currency
 * of the other kind `422 unsupported_pair`.
 */
export const FiatCurrencyId = CurrencyIdSchema.meta({
  id: 'FiatCurrencyId',
  description: 'A fiat currency: its ID in GET /api/dict/currencies, never a ticker.',
  enum: idsOf('fiat'),
  example: 1,
});
export const CryptoCurrencyId = CurrencyIdSchema.meta({
  id: 'CryptoCurrencyId',
  description: 'A crypto currency (a coin or token on one network): its ID in GET /api/dict/currencies, never a ticker.',
  enum: idsOf('crypto'),
  example: 13,
});

const ProviderCodeSchema = z
  .string()
  .regex(/^[a-z0-9_]{2,32}$/)
  .meta({ description: 'A provider code (GET /api/on_ramp/providers).', example: 'sandbox' });

export const CountryCode = CountrySchema.shape.code.meta({
  id: 'CountryCode',
  description: 'ISO 3166-1 alpha-2 country code, in capitals (GET /api/dict/countries).',
  enum: COUNTRIES.map((c) => c.code),
  example: 'GB',
});

export const StateCode = StateSchema.shape.code.meta({
  id: 'StateCode',
  description:
    'A state: the subdivision part of its ISO 3166-2 code ("NY" for US-NY). Required where the country has states (the US, ' +
    'GET /api/dict/countries); refused where it has none.',
  enum: [...new Set(COUNTRIES.flatMap((c) => c.states.map((s) => s.code)))].sort(),
});

/**
 * An IP address field (z.ipv4() or z.ipv6()): zod-to-openapi writes both as format "ip", which JSON
 * Schema does not define, so the two branches are spelled out.
 */
export const ipAddress = (description: string) => ({
  description,
  anyOf: [
    { type: 'string', format: 'ipv4' },
    { type: 'string', format: 'ipv6' },
  ],
});

const ProviderCodesSchema = z.string().meta({
  description: 'Comma-separated codes of enabled providers: only these providers. An unknown or disabled code is a `validation_error`.',
  example: 'moonpay,ramp',
});

// ---- examples ------------------------------------------------------------------------------------

/** An order the offers example makes possible: same user, provider, currencies, amount, country and method. */
const EXAMPLE_ORDER = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100.00',
  wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  payment_method: 'card',
  country_code: 'GB',
  external_user_id: 'user-1',
  external_order_id: 'order-1',
};
/** The id the example order gets for the development integrator (`dev`, the default key of `npm run dev`). */
const EXAMPLE_ORDER_ID = orderIdFor('dev', EXAMPLE_ORDER.external_order_id);

// ---- errors --------------------------------------------------------------------------------------

export const FieldError = FieldErrorSchema.meta({ id: 'FieldError' });

export const Problem = ProblemSchema.extend({ errors: z.array(FieldError).optional() }).meta({
  id: 'Problem',
  description:
    'An error, as application/problem+json (RFC 9457). `code` is stable: program against it, not against `detail`. ' +
    '`errors` lists every offending field of a validation problem; `request_id` matches the X-Request-Id response header.',
  example: {
    type: 'urn:onramp-broker:problem:ticker_not_allowed',
    title: 'Currency tickers are not accepted',
    status: 400,
    detail: 'currency_from must be a currency ID from GET /api/dict/currencies, not a ticker ("USD").',
    code: 'ticker_not_allowed',
    errors: [{ path: 'currency_from', message: 'tickers are not accepted; use the integer currency ID' }],
    request_id: '5b0c3c9e-4a8e-4f6b-9a53-0c1c7f7d2a10',
  },
});

const problemCodesFor = (status: number) =>
  (Object.keys(PROBLEM_CODES) as ProblemCode[]).filter((code) => PROBLEM_CODES[code].status === status);

const problemsByStatus = new Map<number, ReturnType<typeof buildProblemFor>>();

function buildProblemFor(status: number) {
  const codes = problemCodesFor(status);
  if (codes.length === 0) throw new Error(`no problem code answers ${status}`);
  const narrowed = z.object({ status: z.literal(status), code: z.enum(codes as [ProblemCode, ...ProblemCode[]]) });
  return z.intersection(Problem, narrowed).meta({ id: `Problem${status}` });
}

/** The problem schema of one HTTP status (component `Problem<status>`): `status` is that status and `code` one of its codes. */
export function problemFor(status: number) {
  let schema = problemsByStatus.get(status);
  if (!schema) problemsByStatus.set(status, (schema = buildProblemFor(status)));
  return schema;
}

// ---- dictionaries --------------------------------------------------------------------------------

export const Currency = CurrencySchema.meta({
  id: 'Currency',
  description:
    'A currency of the dictionary. IDs never change and are never reused; a crypto currency is tied to its network ' +
    '(USDT on Ethereum and USDT on Tron are two IDs), fiat currencies have no network.',
});
export const CurrencyListSchema = z.object({ currencies: z.array(Currency) }).meta({ id: 'CurrencyList' });
export type CurrencyList = z.infer<typeof CurrencyListSchema>;

export const State = StateSchema.meta({ id: 'State' });
export const Country = CountrySchema.extend({ states: z.array(State) }).meta({ id: 'Country' });
export const CountryListSchema = z.object({ countries: z.array(Country) }).meta({ id: 'CountryList' });
export type CountryList = z.infer<typeof CountryListSchema>;

// ---- catalogue -----------------------------------------------------------------------------------

export const PaymentMethodSchema = z
  .object({ code: z.string(), name: z.string(), icon_url: z.url().nullable() })
  .meta({ id: 'PaymentMethod' });
export const PaymentMethodListSchema = z.object({ payment_methods: z.array(PaymentMethodSchema) }).meta({ id: 'PaymentMethodList' });
export type PaymentMethodList = z.infer<typeof PaymentMethodListSchema>;

export const PaymentMethodFeeSchema = z
  .object({
    payment_method_code: z.string(),
    fee: z
      .string()
      .regex(/^\d+(\.\d+)?%$/)
      .meta({
        description:
          "The method's percentage fee as text: the provider's published rate, or, for a provider that prices each quote, the processing fee's share of a reference quote at ten times the method's minimum (docs/providers.md).",
        example: '3.99%',
      }),
  })
  .meta({ id: 'PaymentMethodFee' });
export const PaymentMethodFeeListSchema = z
  .object({ payment_methods: z.array(PaymentMethodFeeSchema) })
  .meta({ id: 'PaymentMethodFeeList' });
export type PaymentMethodFeeList = z.infer<typeof PaymentMethodFeeListSchema>;

export const ServedCountrySchema = z
  .object({
    code: CountryCode,
    states: z.array(z.string()).optional().meta({ description: 'The states served, where the country has states.' }),
  })
  .meta({ id: 'ServedCountry' });
export const ServedCountryListSchema = z.object({ countries: z.array(ServedCountrySchema) }).meta({ id: 'ServedCountryList' });
export type ServedCountryList = z.infer<typeof ServedCountryListSchema>;

export const CurrencyPairsSchema = z
  .object({
    provider_code: ProviderCodeSchema,
    fiat_currencies: z.array(CurrencyIdSchema),
    crypto_currencies: z.array(CurrencyIdSchema),
  })
  .meta({ id: 'CurrencyPairs' });
export const CurrencyPairsListSchema = z.array(CurrencyPairsSchema).meta({ id: 'CurrencyPairsList' });
export type CurrencyPairsList = z.infer<typeof CurrencyPairsListSchema>;

export const Provider = ProviderInfoSchema.meta({ id: 'Provider' });
export const ProviderListSchema = z.object({ providers: z.array(Provider) }).meta({ id: 'ProviderList' });
export type ProviderList = z.infer<typeof ProviderListSchema>;

const providerCodes = { provider_codes: ProviderCodesSchema.optional() };

export const PaymentMethodsQuerySchema = z.object({
  fiat_currency: FiatCurrencyId,
  country_code: CountryCode.optional(),
  state: StateCode.optional(),
  ...providerCodes,
});

export const PaymentMethodsExtraInfoQuerySchema = z.object({ provider_code: ProviderCodeSchema });

export const CatalogueCountriesQuerySchema = z.object({ ...providerCodes });

export const CurrencyPairsQuerySchema = z.object({
  country_code: CountryCode,
  state: StateCode.optional(),
  ...providerCodes,
});

export const ProvidersQuerySchema = z.object({
  country_code: CountryCode,
  state: StateCode.optional(),
  from_currency: FiatCurrencyId,
  to_currency: CryptoCurrencyId,
  ...providerCodes,
});

// ---- offers --------------------------------------------------------------------------------------

/** GET /api/on_ramp/offers query as the route parses it; the currencies are checked by hand (src/api/params.ts). */
export const OffersQuerySchema = z.object({
  external_user_id: ExternalIdSchema,
  amount_from: z.string().regex(DECIMAL_AMOUNT_PATTERN, 'a positive decimal string such as "100.00"'),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 code in capitals')
    .optional(),
  state: z.string().optional(),
  ip: z.union([z.ipv4(), z.ipv6()]).optional(),
  payment_method: z
    .string()
    .regex(/^[a-z0-9_]{2,48}$/)
    .optional(),
  include_errors: z.enum(['true', 'false']).optional(),
  ranking: z.enum(['on', 'off']).optional(),
});

/** The offers query as GET /api/on_ramp/offers parses it, with the currency IDs it checks by hand. */
export const OffersParamsSchema = OffersQuerySchema.extend({
  external_user_id: OffersQuerySchema.shape.external_user_id.meta({ description: "Your user's id.", example: 'user-1' }),
  currency_from: FiatCurrencyId,
  currency_to: CryptoCurrencyId,
  amount_from: OffersQuerySchema.shape.amount_from.meta({
    description: "Fiat amount as a decimal string, at most the currency's precision in decimals.",
    example: '100.00',
  }),
  country: CountryCode,
  state: StateCode.optional(),
  ip: OffersQuerySchema.shape.ip.meta(
    ipAddress(
      "The end user's IP address. A provider that signs its checkout for it (Mercuryo) is offered only with it, and left out with " +
        'reason `ip_required` otherwise; an order without `ip` uses the one given here.',
    ),
  ),
  payment_method: OffersQuerySchema.shape.payment_method.meta({ description: 'Quote this payment method only.', example: 'card' }),
  provider_codes: ProviderCodesSchema.optional(),
  include_errors: OffersQuerySchema.shape.include_errors.meta({
    description: '`true`: also list the providers left out, each with the reason.',
  }),
  ranking: OffersQuerySchema.shape.ranking.meta({
    description:
      '`off`: offers without `ranking`, in no particular order. By default each offer has a `ranking` (expected crypto delivered, ' +
      'from how often orders with its provider complete) and the offers come highest rank first.',
  }),
});

const RANKING = OfferRankingSchema.shape;
export const OfferRanking = OfferRankingSchema.extend({
  score: RANKING.score.meta({
    description:
      'Expected crypto delivered: amount_expected_to times the completion estimate (raised for a returning customer), rounded down.',
  }),
  rank: RANKING.rank.meta({ description: '1 for the highest score.' }),
  completion_rate: RANKING.completion_rate.meta({
    description:
      "The share of this provider's orders expected to complete (created and completed), for the country and payment method, in whole percent (a finer figure would tell how many orders other integrators sent): your own orders, leaning on all integrators' while yours are few; without the returning-customer boost.",
  }),
  samples: RANKING.samples.meta({
    description: "Your own orders (time-weighted) for this provider, country and payment method; never other integrators'.",
  }),
  reasons: RANKING.reasons.meta({
    description: 'What the estimate rests on, for a person to read; any count in them is of your own orders.',
  }),
  recommended: RANKING.recommended.meta({ description: 'true on the first offer only.' }),
}).meta({
  id: 'OfferRanking',
  description: 'How the offer ranks (docs/decisions.md, "Offer ranking"). Absent with ranking=off.',
});

export const Offer = OfferSchema.extend({ ranking: OfferRanking.optional() }).meta({
  id: 'Offer',
  description: "A provider's offer. Amounts are decimal strings; expires_at is when the order must be created by.",
});
export const OfferError = OfferErrorSchema.meta({
  id: 'OfferError',
  description:
    'A provider left out of the offers (only with include_errors=true), with the reason. `ip_required`: the provider needs the ' +
    "end user's IP address to take an order; ask again with `ip`. `provider_unavailable`: the provider's recent order creations " +
    'failed (its circuit breaker is open), so its orders would be refused; it is offered again once probe orders are let through.',
});
export const OffersSchema = z.record(ProviderCodeSchema, z.union([Offer, OfferError])).meta({
  id: 'Offers',
  description: 'Offers keyed by provider code. Providers left out appear only with include_errors=true, as OfferError.',
});
export type Offers = z.infer<typeof OffersSchema>;

// ---- off-ramp ------------------------------------------------------------------------------------

/** One payout method of one provider (GET /api/off_ramp/payout_methods). */
export const PayoutMethodSchema = z
  .object({
    provider_code: ProviderCodeSchema,
    code: z.string().meta({ description: 'The code sent as payout_method in sell offers and orders.', example: 'sepa' }),
    name: z.string(),
    icon_url: z.url().nullable(),
    fee: z
      .string()
      .regex(/^\d+(\.\d+)?%$/)
      .optional()
      .meta({ description: "The method's percentage fee as the provider publishes it; absent where it publishes none.", example: '1%' }),
    limits: z
      .array(
        z.object({
          currency: FiatCurrencyId,
          min: z.string().meta({ description: 'The smallest payout, in that fiat currency.', example: '10.00' }),
          max: z.string().meta({ description: 'The largest payout, in that fiat currency.', example: '10000.00' }),
        }),
      )
      .meta({ description: 'The fiat currencies the method pays out, each with its payout limits; by currency ID.' }),
  })
  .meta({ id: 'PayoutMethod' });
export const PayoutMethodListSchema = z.object({ payout_methods: z.array(PayoutMethodSchema) }).meta({ id: 'PayoutMethodList' });
export type PayoutMethodList = z.infer<typeof PayoutMethodListSchema>;

export const OffRampPayoutMethodsQuerySchema = z.object({
  country_code: CountryCode.optional(),
  state: StateCode.optional(),
  currency: FiatCurrencyId.optional(),
  ...providerCodes,
});

export const OffRampProvidersQuerySchema = z.object({
  country_code: CountryCode,
  state: StateCode.optional(),
  from_currency: CryptoCurrencyId,
  to_currency: FiatCurrencyId,
  ...providerCodes,
});

/** GET /api/off_ramp/offers query as the route parses it; the currencies, country and state are checked by hand (src/api/params.ts). */
export const SellOffersQuerySchema = OffersQuerySchema.omit({ payment_method: true, ranking: true }).extend({
  payout_method: OffersQuerySchema.shape.payment_method,
});

/** The sell offers query as GET /api/off_ramp/offers parses it, with the currency IDs it checks by hand. */
export const SellOffersParamsSchema = SellOffersQuerySchema.extend({
  external_user_id: OffersParamsSchema.shape.external_user_id,
  currency_from: CryptoCurrencyId,
  currency_to: FiatCurrencyId,
  amount_from: SellOffersQuerySchema.shape.amount_from.meta({
    description: "Crypto amount sold, as a decimal string, at most the crypto currency's precision in decimals.",
    example: '0.05',
  }),
  country: CountryCode,
  state: StateCode.optional(),
  ip: OffersParamsSchema.shape.ip,
  payout_method: SellOffersQuerySchema.shape.payout_method.meta({ description: 'Quote this payout method only.', example: 'sepa' }),
  provider_codes: ProviderCodesSchema.optional(),
  include_errors: OffersParamsSchema.shape.include_errors,
});

export const SellOffer = SellOfferSchema.meta({
  id: 'SellOffer',
  description:
    "A provider's sell offer: the customer sends amount_from of the crypto currency and receives amount_expected_to of the fiat " +
    'currency, every fee (in the fiat currency) already taken off. expires_at is when the sell order must be created by.',
});
export const SellOfferError = SellOfferErrorSchema.meta({
  id: 'SellOfferError',
  description:
    'A provider left out of the sell offers (only with include_errors=true), with the reason: the codes of OfferError, ' +
    '`payout_method` for a payout method the provider does not offer. With `limits`, min_amount and max_amount are crypto amounts.',
});
export const SellOffersSchema = z.record(ProviderCodeSchema, z.union([SellOffer, SellOfferError])).meta({
  id: 'SellOffers',
  description: 'Sell offers keyed by provider code, the highest payout first. Providers left out appear only with include_errors=true.',
});
export type SellOffers = z.infer<typeof SellOffersSchema>;

// ---- orders --------------------------------------------------------------------------------------

export const CreateOrderRequest = CreateOrderBodySchema.extend({
  from_currency: FiatCurrencyId,
  to_currency: CryptoCurrencyId,
  country_code: CountryCode,
  state_code: StateCode.optional(),
  ip: CreateOrderBodySchema.shape.ip.meta(ipAddress("The end user's IP address.")),
  extras: CreateOrderBodySchema.shape.extras.meta({
    description: `Passed through to the order. The keys the broker writes from the provider's reports (${BROKER_EXTRAS_KEYS.join(', ')}) are refused (validation_error), as are more than ${EXTRAS_LIMITS.depth} levels of nesting, ${EXTRAS_LIMITS.keys} keys or ${EXTRAS_LIMITS.bytes} bytes of JSON, and a return_url or redirect_url that is not https: (http: to loopback outside production) or is longer than ${CUSTOMER_URL_MAX_BYTES} bytes.`,
  }),
}).meta({ id: 'CreateOrderRequest', example: EXAMPLE_ORDER });

export const OrderStatus = OrderStatusSchema.meta({ id: 'OrderStatus' });
export const Order = OrderSchema.extend({
  status: OrderStatus,
  discrepancies: OrderSchema.shape.discrepancies.meta({
    description:
      "Present when the provider reports a different fiat amount or currency than was ordered: from_amount and from_currency are then the provider's figures, and each entry gives what was ordered and what the provider reports (a currency it names that the broker does not know reads `unknown`).",
  }),
}).meta({ id: 'Order' });

export const OrderPathSchema = z.object({ provider_code: ProviderCodeSchema });

/** `?code=` of the status route and the order's webhook routes, as they parse it. */
export const StatusQuerySchema = z.object({ code: z.uuid('code must be the order id returned at creation') });
export const OrderStatusQuerySchema = StatusQuerySchema.extend({
  code: StatusQuerySchema.shape.code.meta({
    description: 'The order id returned at creation.',
    example: EXAMPLE_ORDER_ID,
  }),
});

export const SEARCH_LIMIT = { min: 1, max: 100, default: 20 } as const;

/** A status filter of the search and the export: any buy or sell status (a kind answers only its own). */
export const AnyOrderStatusSchema = z.enum(ANY_ORDER_STATUSES);
export const AnyOrderStatus = AnyOrderStatusSchema.meta({
  id: 'AnyOrderStatus',
  description: 'A status of a buy order (OrderStatus) or of a sell order (SellOrderStatus).',
});
export const OrderKindSchema = z.enum(ORDER_KINDS);
export const OrderKind = OrderKindSchema.meta({
  id: 'OrderKind',
  description: '`on_ramp`: a buy order (the customer pays fiat for crypto); `off_ramp`: a sell order (crypto sent for a fiat payout).',
});

/** Quotes and backslashes could end a visibility string literal: refused rather than escaped (docs/decisions.md). */
const searchable = (schema: z.ZodString) =>
  schema.refine((v) => !UNSAFE_QUERY_CHARACTERS.test(v), 'quotes and backslashes cannot be searched');

/** The instants a search can name: visibility takes no date before 1970 or after 9999 (and no order has one). */
const SEARCHABLE_FROM_MS = Date.UTC(1970, 0, 1);
const SEARCHABLE_TO_MS = Date.UTC(10000, 0, 1) - 1;
const searchableInstant = (value: string) => {
  const ms = Date.parse(value);
  return ms >= SEARCHABLE_FROM_MS && ms <= SEARCHABLE_TO_MS;
};

const Rfc3339 = z.iso
  .datetime({ offset: true, message: 'expected an RFC 3339 date-time, e.g. 2026-11-22T10:00:00Z' })
  .refine(searchableInstant, 'a date-time from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z');

/** GET /api/on_ramp/orders query as the route parses it. Strict: a misspelt filter is an error, never a wider answer. */
export const OrderSearchQuerySchema = z.strictObject({
  external_user_id: searchable(ExternalIdSchema).optional(),
  external_order_id: searchable(ExternalIdSchema).optional(),
  status: AnyOrderStatusSchema.optional(),
  kind: OrderKindSchema.optional(),
  provider_code: z
    .string()
    .regex(/^[a-z0-9_]{2,32}$/)
    .optional(),
  created_from: Rfc3339.optional(),
  created_to: Rfc3339.optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `an integer from ${SEARCH_LIMIT.min} to ${SEARCH_LIMIT.max}`)
    .transform(Number)
    .pipe(z.number().int().min(SEARCH_LIMIT.min).max(SEARCH_LIMIT.max))
    .optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,512}$/, 'the next_cursor of a previous answer')
    .optional(),
});

/**
 * What the search's opaque cursor decodes to (src/api/routes/order-search.ts). `i` is an order id, or
 * the edge a page ended at inside a millisecond (search.ts: idBelow): any UUID-shaped id.
 */
export const OrderSearchCursorSchema = z.strictObject({ c: z.iso.datetime().refine(searchableInstant), i: z.guid() });

export const OrderSearchQuery = OrderSearchQuerySchema.extend({
  external_user_id: OrderSearchQuerySchema.shape.external_user_id.meta({
    description: 'Only the orders of this user (your external_user_id). Quotes and backslashes are refused.',
  }),
  external_order_id: OrderSearchQuerySchema.shape.external_order_id.meta({
    description: 'Only the order with this external_order_id. Quotes and backslashes are refused.',
  }),
  status: AnyOrderStatus.optional(),
  kind: OrderKind.optional(),
  provider_code: OrderSearchQuerySchema.shape.provider_code.meta({
    description: 'Only the orders with this provider.',
    example: 'sandbox',
  }),
  created_from: OrderSearchQuerySchema.shape.created_from.meta({
    description: 'Only the orders created at or after this instant (RFC 3339).',
    example: '2026-11-22T00:00:00Z',
  }),
  created_to: OrderSearchQuerySchema.shape.created_to.meta({
    description: 'Only the orders created at or before this instant (RFC 3339).',
    example: '2026-11-23T00:00:00Z',
  }),
  limit: z
    .number()
    .int()
    .min(SEARCH_LIMIT.min)
    .max(SEARCH_LIMIT.max)
    .optional()
    .meta({ description: `Orders per page (default ${SEARCH_LIMIT.default}).`, example: SEARCH_LIMIT.default }),
  cursor: OrderSearchQuerySchema.shape.cursor.meta({ description: 'The `next_cursor` of the previous page; absent for the first page.' }),
});

/** GET /api/on_ramp/orders/export query as the route parses it: a window of request times, its filters and the format. */
export const OrderExportQuerySchema = z.strictObject({
  requested_from: Rfc3339,
  requested_to: Rfc3339,
  format: z.enum(EXPORT_FORMATS).optional(),
  status: AnyOrderStatusSchema.optional(),
  kind: OrderKindSchema.optional(),
  provider_code: OrderSearchQuerySchema.shape.provider_code,
  external_user_id: OrderSearchQuerySchema.shape.external_user_id,
});

export const OrderExportQuery = OrderExportQuerySchema.extend({
  requested_from: OrderExportQuerySchema.shape.requested_from.meta({
    description: 'The orders requested at or after this instant (RFC 3339): when POST /api/on_ramp/orders reached the broker.',
    example: '2026-11-01T00:00:00Z',
  }),
  requested_to: OrderExportQuerySchema.shape.requested_to.meta({
    description:
      'The orders requested before this instant (RFC 3339, excluded: consecutive windows hold each order once). At least ' +
      'ORDER_CREATE_TIMEOUT_SECONDS + 60 s (90 s) in the past, so that every order of the window is visible.',
    example: '2026-12-01T00:00:00Z',
  }),
  format: OrderExportQuerySchema.shape.format.meta({
    description: '`csv` (default; RFC 4180 with a header record, CRLF line ends) or `jsonl` (one JSON object per line).',
  }),
  status: AnyOrderStatus.optional(),
  kind: OrderKind.optional(),
  provider_code: OrderSearchQuery.shape.provider_code,
  external_user_id: OrderSearchQuery.shape.external_user_id,
});

// ---- integrator webhooks -------------------------------------------------------------------------

/** What became of one webhook sent on request: the test event and a re-sent order webhook. */
const DELIVERED_ONCE_FIELDS = {
  delivered: z.boolean().meta({ description: 'Whether your endpoint answered 2xx.' }),
  status_code: z.number().int().optional().meta({ description: "Your endpoint's HTTP status, when it answered." }),
  error: z
    .string()
    .optional()
    .meta({ description: 'Why it was not delivered: an HTTP status, a network error, a timeout, or the SSRF guard refusing the URL.' }),
  latency_ms: z.number().int().min(0).meta({ description: 'From sending to the answer (or the failure), in milliseconds.' }),
};

export const WebhookTestResultSchema = z
  .object({
    webhook_id: z.string().meta({ description: 'The `webhook-id` header the test event carried.', example: 'evt_test_1b4e…' }),
    url: z.url().meta({ description: 'Your webhook endpoint, as configured.' }),
    ...DELIVERED_ONCE_FIELDS,
  })
  .meta({ id: 'WebhookTestResult' });

export const WebhookResendResultSchema = z
  .object({
    webhook_id: z
      .string()
      .meta({ description: 'The `webhook-id` header: the same as the original webhook of this status change.', example: 'evt_…_4' }),
    sequence: z.number().int().min(1).meta({ description: "The order's latest sequence, as in the body's `data.sequence`." }),
    ...DELIVERED_ONCE_FIELDS,
  })
  .meta({ id: 'WebhookResendResult' });

export const WebhookDeliverySchema = z
  .object({
    webhook_id: z.string().meta({ description: 'The `webhook-id` header of the attempt.' }),
    sequence: z.number().int().min(1).meta({ description: 'The status change the webhook told (`data.sequence`).' }),
    attempt: z.number().int().min(1).meta({ description: '1 for the first attempt of this webhook-id.' }),
    attempted_at: z.iso.datetime().meta({ description: 'When the attempt started.' }),
    outcome: z.enum(['delivered', 'failed', 'refused', 'no_endpoint']).meta({
      description:
        '`delivered` (2xx), `failed` (another status, a network error or a timeout: retried on the schedule), `refused` (the SSRF guard ' +
        'refused the URL) or `no_endpoint` (no webhook URL was configured).',
    }),
    status_code: z.number().int().optional().meta({ description: "Your endpoint's HTTP status, when it answered." }),
    error: z.string().optional().meta({ description: 'Why the attempt did not deliver.' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const WebhookDeliveriesSchema = z
  .object({
    deliveries: z.array(WebhookDeliverySchema).meta({ description: 'Oldest first; the newest 100 attempts.' }),
  })
  .meta({ id: 'WebhookDeliveries' });

// ---- addresses -----------------------------------------------------------------------------------

/**
 * POST /api/on_ramp/validate-address body as the route parses it (spec "POST
 * /api/on_ramp/validate-address"). `memo` is the broker's addition: the destination tag or memo for
 * networks that have one (docs/decisions.md). The address is trimmed as in order creation, so both
 * give one verdict for one address.
 */
export const ValidateAddressBodySchema = z.strictObject({
  provider_code: z.string().regex(/^[a-z0-9_]{2,32}$/),
  currency: z.unknown().optional(),
  wallet_address: z.string().trim().min(1).max(256),
  memo: z.string().max(256).optional(),
});

export const ValidateAddressRequest = ValidateAddressBodySchema.extend({
  currency: CryptoCurrencyId,
}).meta({
  id: 'ValidateAddressRequest',
  example: { provider_code: 'sandbox', currency: 13, wallet_address: EXAMPLE_ORDER.wallet_address },
});

export const ValidateAddressResultSchema = z
  .object({
    result: z.boolean(),
    reason: z.string().optional().meta({ description: 'Why the address is not valid.' }),
  })
  .meta({ id: 'ValidateAddressResult' });
export type ValidateAddressResult = z.infer<typeof ValidateAddressResultSchema>;

// ---- customers -----------------------------------------------------------------------------------

/** DELETE /api/on_ramp/customers/{external_user_id}: the same ids as offers and orders accept. */
export const CustomerPathSchema = z.object({
  external_user_id: ExternalIdSchema.meta({
    description: "Your user's id, as sent with offers and orders (URL-encoded: 1 to 128 printable ASCII characters, no spaces).",
    example: 'user-1',
  }),
});

// ---- operator API: daily summary -----------------------------------------------------------------

/** GET /api/operator/summaries/daily query as the route parses it. Strict: a misspelt filter is an error, never a wider answer. */
export const DailySummaryQuerySchema = z.strictObject({
  date: z
    .string()
    .regex(UTC_DATE_PATTERN, 'a date, YYYY-MM-DD')
    .refine((date) => utcDayWindow(date) !== undefined, 'a calendar date from 1970-01-01 to 9999-12-31'),
  format: z.enum(SUMMARY_FORMATS).optional(),
  integrator_id: IntegratorSchema.shape.id.optional(),
  provider_code: z
    .string()
    .regex(/^[a-z0-9_]{2,32}$/)
    .optional(),
});

export const DailySummaryQuery = DailySummaryQuerySchema.extend({
  date: DailySummaryQuerySchema.shape.date.meta({
    description:
      'The UTC day: the orders requested from its 00:00 (included) to the next 00:00 (excluded). A day that has not ended ' +
      'ORDER_CREATE_TIMEOUT_SECONDS + 60 s ago (90 s) is refused, and so is a day whose orders the namespace retention may have deleted.',
    example: '2026-11-29',
  }),
  format: DailySummaryQuerySchema.shape.format.meta({
    description: '`json` (default) or `csv` (RFC 4180 with a header record, CRLF line ends: one record per row).',
  }),
  integrator_id: DailySummaryQuerySchema.shape.integrator_id.meta({ description: "Only this integrator's orders.", example: 'dev' }),
  provider_code: DailySummaryQuerySchema.shape.provider_code.meta({
    description: "Only this provider's orders (also a provider no longer enabled).",
    example: 'sandbox',
  }),
});

const SummaryCount = z.number().int().min(0);
const SummaryAmount = z
  .string()
  .regex(/^\d+(\.\d+)?$/)
  .meta({ description: "An exact sum, as a decimal string, with the currency's places (more when an amount had more)." });

export const CryptoDeliveredSchema = z
  .object({
    currency: CurrencyIdSchema.meta({ description: 'The crypto currency (GET /api/dict/currencies).' }),
    currency_code: z.string().nullable().meta({ description: 'Its ticker; null for a currency the dictionary does not have.' }),
    network: z.string().nullable().meta({ description: 'Its network.' }),
    amount: SummaryAmount,
  })
  .meta({ id: 'CryptoDelivered' });

const SUMMARY_FIGURES = {
  fiat_currency: CurrencyIdSchema.meta({
    description:
      'The fiat currency the orders state (the provider-verified one: for an order paid in another currency than requested, the paid one).',
  }),
  fiat_currency_code: z.string().nullable().meta({ description: 'Its ticker; null for a currency the dictionary does not have.' }),
  orders: SummaryCount.meta({ description: 'Every order requested that day; the five status counts add up to it.' }),
  completed: SummaryCount.meta({ description: 'Orders `complete`.' }),
  failed: SummaryCount.meta({ description: 'Orders `failed` (one may still become `refunded`).' }),
  expired: SummaryCount.meta({ description: 'Orders `expired` (one may still be paid late, within ORDER_SETTLED_GRACE_SECONDS).' }),
  refunded: SummaryCount.meta({ description: 'Orders `refunded`.' }),
  open: SummaryCount.meta({ description: 'Orders `created`, `pending`, `hold` or `processing`: not settled when the summary was read.' }),
  completed_volume: SummaryAmount.meta({
    description: "The completed orders' `from_amount`: the fiat amount the provider says was paid, fees included.",
  }),
  quoted_fees: SummaryAmount.meta({
    description:
      "The `total_fee_amount` the completed orders' offers quoted (not what the provider reported after payment); without " +
      'the orders counted in `completed_without_quoted_fee`.',
  }),
  completed_with_discrepancies: SummaryCount.meta({
    description: 'Completed orders paid with another amount or currency than requested (their `discrepancies`).',
  }),
  completed_without_quoted_fee: SummaryCount.meta({
    description:
      'Completed orders whose quoted fee is not in `quoted_fees`: placed before the broker kept it, or paid in another currency ' +
      'than the one the fee was quoted in.',
  }),
  crypto_delivered: z
    .array(CryptoDeliveredSchema)
    .meta({ description: "The completed orders' `to_amount` (the provider's crypto amount) per crypto currency." }),
};

export const DailySummaryTotalSchema = z.object(SUMMARY_FIGURES).meta({ id: 'DailySummaryTotal' });
export type DailySummaryFiguresBody = z.infer<typeof DailySummaryTotalSchema>;

export const DailySummaryRowSchema = z
  .object({
    integrator_id: z.string().meta({ description: 'The integrator.', example: 'dev' }),
    provider_code: z.string().meta({ description: 'The provider.', example: 'sandbox' }),
    ...SUMMARY_FIGURES,
  })
  .meta({ id: 'DailySummaryRow' });

export const DailySummarySchema = z
  .object({
    date: z.string().meta({ description: 'The UTC day.', example: '2026-11-29' }),
    from: z.iso.datetime().meta({ description: 'The first instant of the day (included).' }),
    to: z.iso.datetime().meta({ description: 'The first instant of the next day (excluded).' }),
    generated_at: z.iso.datetime().meta({ description: 'When the orders were read: their statuses are as of then.' }),
    integrator_id: z.string().nullable().meta({ description: 'The integrator filter; null: every integrator.' }),
    provider_codes: z.array(z.string()).meta({ description: 'The providers whose orders were read.' }),
    rows: z
      .array(DailySummaryRowSchema)
      .meta({ description: 'One per integrator, provider and fiat currency with an order, in that order.' }),
    totals: z
      .array(DailySummaryTotalSchema)
      .meta({ description: "Per fiat currency, the rows' figures added up (amounts of different currencies are never added)." }),
  })
  .meta({ id: 'DailySummary' });
export type DailySummaryBody = z.infer<typeof DailySummarySchema>;

// ---- provider webhooks ---------------------------------------------------------------------------

export const WebhookPathSchema = z.object({ provider_code: ProviderCodeSchema });
export const WebhookBodySchema = z
  .record(z.string(), z.unknown())
  .meta({ id: 'ProviderWebhook', description: "The provider's own event, verified against its signature on the raw body." });
export const WebhookReceiptSchema = z.object({ received: z.literal(true) }).meta({ id: 'WebhookReceipt' });
export type WebhookReceipt = z.infer<typeof WebhookReceiptSchema>;

// ---- health --------------------------------------------------------------------------------------

export const HealthSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export const ReadinessSchema = z
  .object({ status: z.enum(['ready', 'not_ready']), checks: z.record(z.string(), z.boolean()) })
  .meta({ id: 'Readiness' });

// ---- documentation -------------------------------------------------------------------------------

export const OpenApiDocumentSchema = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document: this one.' });
