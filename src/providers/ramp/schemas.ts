import { z } from 'zod';
import { PROVIDER_BASE_UNITS_TEXT } from '../kit/decimal-text';

/** Ramp's fiat figures are JSON numbers; -1 stands for "no limit of its own" on an asset. */
const amount = z.number().finite();
/** Crypto amounts are integer strings in the asset's smallest unit (wei, satoshi...). */
const baseUnits = z.string().regex(PROVIDER_BASE_UNITS_TEXT);

/** `AssetInfo` of GET /host-api/v3/assets. */
export const RampAssetSchema = z.object({
  symbol: z.string().min(1),
  chain: z.string().min(1),
  name: z.string().optional(),
  decimals: z.number().int().min(0).max(36),
  type: z.string().optional(),
  /** Token contract; null (or absent) for a chain's native coin. */
  address: z.string().nullish(),
  enabled: z.boolean().optional(),
  hidden: z.boolean().optional(),
  currencyCode: z.string().optional(),
  minPurchaseAmount: amount,
  maxPurchaseAmount: amount,
  minPurchaseCryptoAmount: baseUnits.optional(),
  networkFee: amount.optional(),
});
export type RampAsset = z.infer<typeof RampAssetSchema>;

/** `HostAssetsConfig`: limits and fees are in `currencyCode`. */
export const RampAssetsSchema = z.object({
  assets: z.array(RampAssetSchema),
  enabledFeatures: z.array(z.string()).optional(),
  currencyCode: z.string().length(3),
  minPurchaseAmount: amount,
  maxPurchaseAmount: amount,
  minFeeAmount: amount.optional(),
  minFeePercent: amount,
  maxFeePercent: amount,
});
export type RampAssets = z.infer<typeof RampAssetsSchema>;

/** GET /host-api/v3/currencies. */
export const RampCurrenciesSchema = z.array(
  z.object({
    fiatCurrency: z.string().length(3),
    name: z.string().optional(),
    onrampAvailable: z.boolean(),
    offrampAvailable: z.boolean().optional(),
  }),
);
export type RampCurrencies = z.infer<typeof RampCurrenciesSchema>;

/** GET /host-api/v3/payment-methods: each method with the fiat currencies (and countries) it takes. */
export const RampPaymentMethodsSchema = z.array(
  z.object({
    name: z.string().min(1),
    currencies: z.array(z.string().length(3)),
    countries: z.array(z.string()).optional(),
  }),
);
export type RampPaymentMethods = z.infer<typeof RampPaymentMethodsSchema>;

/** GET /host-api/countries: `code` is ISO 3166-1 alpha-2 in lower case. */
export const RampCountriesSchema = z.array(
  z.object({
    code: z.string().length(2),
    name: z.string().optional(),
    cardPaymentsEnabled: z.boolean().optional(),
    mainCurrencyCode: z.string().optional(),
    /** US states served; read when present (no such field is documented: docs/providers/ramp.md). */
    states: z.array(z.string().min(1)).optional(),
  }),
);
export type RampCountries = z.infer<typeof RampCountriesSchema>;

/** Body of POST /host-api/v3/onramp/quote/all (a fiat amount; Ramp also takes cryptoAmount instead). */
export const RampQuoteRequestSchema = z.object({
  cryptoAssetSymbol: z.string().regex(/^[A-Z0-9]+_[A-Za-z0-9.]+$/),
  fiatCurrency: z.string().length(3),
  fiatValue: z.number().positive(),
});
export type RampQuoteRequest = z.infer<typeof RampQuoteRequestSchema>;

/** One payment method's entry of the quote. */
export const RampMethodQuoteSchema = z.object({
  fiatCurrency: z.string().length(3),
  cryptoAmount: baseUnits,
  fiatValue: amount,
  baseRampFee: amount,
  appliedFee: amount,
  hostFeeCut: amount.optional(),
});
export type RampMethodQuote = z.infer<typeof RampMethodQuoteSchema>;

/** The quote: one key per payment method name (each a RampMethodQuote) beside `asset`. */
export const RampQuoteSchema = z
  .object({ asset: RampAssetSchema.pick({ symbol: true, chain: true, decimals: true }) })
  .catchall(z.unknown());
export type RampQuote = z.infer<typeof RampQuoteSchema>;

/** `RampPurchase`, as GET /host-api/purchase/{id} answers and webhooks carry it. */
export const RampPurchaseSchema = z.object({
  id: z.string().min(1),
  /** Read capability for the purchase: the `secret` of the status lookup. */
  purchaseViewToken: z.string().min(1).optional(),
  status: z.string().min(1),
  asset: RampAssetSchema.pick({ symbol: true, chain: true, decimals: true, address: true, name: true, type: true }),
  cryptoAmount: baseUnits,
  fiatCurrency: z.string().length(3),
  fiatValue: amount,
  baseRampFee: amount.optional(),
  networkFee: amount.optional(),
  appliedFee: amount.optional(),
  hostFeeCut: amount.optional(),
  assetExchangeRate: amount.optional(),
  paymentMethodType: z.string().optional(),
  receiverAddress: z.string().nullish(),
  finalTxHash: z.string().nullish(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  endTime: z.string().nullish(),
});
export type RampPurchase = z.infer<typeof RampPurchaseSchema>;

/** The documented event types; parsing takes any string so a new type cannot break it. */
export const RAMP_WEBHOOK_TYPES = ['CREATED', 'RELEASED', 'RETURNED'] as const;

/** Body of a webhookStatusUrl call. */
export const RampWebhookSchema = z.object({
  type: z.string().min(1),
  purchase: RampPurchaseSchema,
});
export type RampWebhook = z.infer<typeof RampWebhookSchema>;

/** Ramp's error body: a `code` and optional details. */
export const RampErrorSchema = z.object({
  code: z.string().min(1),
  message: z.string().optional(),
  statusCode: z.number().optional(),
});
