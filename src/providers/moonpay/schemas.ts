import BigNumber from 'bignumber.js';
import { z } from 'zod';

/**
 * MoonPay sends amounts as JSON numbers. Each becomes a plain decimal string at once (bignumber.js
 * reads the number's shortest round-trip form); no arithmetic is ever done on the float.
 */
const amount = z
  .number()
  .nonnegative()
  .transform((n) => new BigNumber(n).toFixed());

/** One entry of `GET /v3/currencies` (fiat and crypto share the list, told apart by `type`). */
export const MoonpayCurrencySchema = z.object({
  id: z.string(),
  type: z.string(),
  code: z.string().min(1),
  name: z.string(),
  minBuyAmount: amount.nullish(),
  maxBuyAmount: amount.nullish(),
  /** Whether MoonPay buys it from customers (off-ramp); its sell limits, in the currency's own units. */
  isSellSupported: z.boolean().nullish(),
  minSellAmount: amount.nullish(),
  maxSellAmount: amount.nullish(),
  isSuspended: z.boolean().nullish(),
  supportsTestMode: z.boolean().nullish(),
  supportsLiveMode: z.boolean().nullish(),
  notAllowedCountries: z.array(z.string()).nullish(),
  notAllowedUSStates: z.array(z.string()).nullish(),
  metadata: z
    .object({
      // The documentation's own sample shows a number here; anything but a non-empty string means "no contract".
      contractAddress: z.string().nullish().catch(null),
      networkCode: z.string().nullish(),
      chainId: z.string().nullish().catch(null),
    })
    .nullish(),
});
export type MoonpayCurrency = z.infer<typeof MoonpayCurrencySchema>;
export const MoonpayCurrenciesSchema = z.array(MoonpayCurrencySchema);

const MoonpayStateSchema = z.object({
  code: z.string().min(1),
  name: z.string().optional(),
  isAllowed: z.boolean(),
  isBuyAllowed: z.boolean().optional(),
});

/** One entry of `GET /v3/countries`. */
export const MoonpayCountrySchema = z.object({
  alpha2: z.string().length(2),
  alpha3: z.string().optional(),
  name: z.string().optional(),
  isAllowed: z.boolean(),
  isBuyAllowed: z.boolean().optional(),
  isSellAllowed: z.boolean().optional(),
  states: z.array(MoonpayStateSchema).nullish(),
});
export type MoonpayCountry = z.infer<typeof MoonpayCountrySchema>;
export const MoonpayCountriesSchema = z.array(MoonpayCountrySchema);

/** `GET /v3/currencies/{code}/buy_quote`. */
export const MoonpayBuyQuoteSchema = z.object({
  baseCurrencyCode: z.string(),
  baseCurrencyAmount: amount,
  quoteCurrencyCode: z.string(),
  quoteCurrencyAmount: amount,
  quoteCurrencyPrice: amount.optional(),
  paymentMethod: z.string().optional(),
  feeAmount: amount,
  extraFeeAmount: amount.default('0'),
  networkFeeAmount: amount,
  totalAmount: amount,
  expiresAt: z.iso.datetime().optional(),
  /** Seconds the quote stays valid, when `expiresAt` is absent. */
  expiresIn: z.number().int().positive().optional(),
});
export type MoonpayBuyQuote = z.infer<typeof MoonpayBuyQuoteSchema>;

/** One step of the buy pipeline; a failed step carries a snake_case `failureReason`. */
export const MoonpayStageSchema = z.object({
  stage: z.string(),
  status: z.string(),
  failureReason: z.string().nullish(),
});

/** A buy transaction (`GET /v1/transactions/…` and the `data` of buy webhooks). */
export const MoonpayTransactionSchema = z.object({
  id: z.string().min(1),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Kept as any string: a status MoonPay adds later must not make the answer unreadable. */
  status: z.string().min(1),
  externalTransactionId: z.string().nullish(),
  walletAddress: z.string().nullish(),
  /** The part of the payment that buys crypto; the three fees are charged on top of it. */
  baseCurrencyAmount: amount.nullish(),
  feeAmount: amount.nullish(),
  /** The partner's own fee, where it takes one. */
  extraFeeAmount: amount.nullish(),
  networkFeeAmount: amount.nullish(),
  quoteCurrencyAmount: amount.nullish(),
  /** The crypto currency bought, as `GET /v3/currencies` lists it. */
  currency: MoonpayCurrencySchema.pick({ code: true, metadata: true }).nullish(),
  /** The fiat currency paid. */
  baseCurrency: z.object({ code: z.string().min(1) }).nullish(),
  cryptoTransactionId: z.string().nullish(),
  /** The legacy human-readable reason, e.g. "Payment authorization declined". */
  failureReason: z.string().nullish(),
  stages: z.array(MoonpayStageSchema).nullish(),
});
export type MoonpayTransaction = z.infer<typeof MoonpayTransactionSchema>;

/** `GET /v1/transactions/ext/{externalTransactionId}`: every transaction carrying that id. */
export const MoonpayTransactionsSchema = z.array(MoonpayTransactionSchema);

/** A buy webhook: `{type: "transaction_created" | "transaction_updated" | "transaction_failed", data}`. */
export const MoonpayWebhookSchema = z.object({
  type: z.string().optional(),
  data: MoonpayTransactionSchema,
});

/** MoonPay's error body. */
export const MoonpayErrorSchema = z.object({
  message: z.string(),
  moonPayErrorCode: z.string().optional(),
  type: z.string().optional(),
});
