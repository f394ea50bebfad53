/**
 * MoonPay's off-ramp messages (docs/providers/moonpay.md, "Sell (off-ramp)"): the sell quote, the
 * sell transaction (`GET /v3/sell_transactions/…` and the `data` of `sell_transaction_*` webhooks).
 */
import BigNumber from 'bignumber.js';
import { z } from 'zod';
import { MoonpayCurrencySchema } from './schemas';

/** MoonPay sends amounts as JSON numbers; each becomes a plain decimal string at once. */
const amount = z
  .number()
  .nonnegative()
  .transform((n) => new BigNumber(n).toFixed());

/** `GET /v3/currencies/{code}/sell_quote`: crypto in (`baseCurrencyAmount`), fiat out (`quoteCurrencyAmount`). */
export const MoonpaySellQuoteSchema = z.object({
  baseCurrencyCode: z.string().optional(),
  baseCurrencyAmount: amount,
  quoteCurrencyCode: z.string().optional(),
  quoteCurrencyAmount: amount,
  baseCurrencyPrice: amount.optional(),
  feeAmount: amount,
  extraFeeAmount: amount.default('0'),
  /** The documentation's example says `payoutMethod`; a community client reads `paymentMethod`: both are taken. */
  payoutMethod: z.string().optional(),
  paymentMethod: z.string().optional(),
  expiresAt: z.iso.datetime().optional(),
  expiresIn: z.number().int().positive().optional(),
});
export type MoonpaySellQuote = z.infer<typeof MoonpaySellQuoteSchema>;

/**
 * A sell transaction. Nothing here is a deposit address: the documented example carries
 * `depositWalletId: null` and no address, so none is read (a `depositWallet` object a third party
 * describes is deliberately not in this schema, and so dropped).
 */
export const MoonpaySellTransactionSchema = z.object({
  id: z.string().min(1),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Kept as any string: the status table refuses what MoonPay does not document. */
  status: z.string().min(1),
  externalTransactionId: z.string().nullish(),
  /** Crypto the customer sells. */
  baseCurrencyAmount: amount.nullish(),
  /** Fiat paid out. */
  quoteCurrencyAmount: amount.nullish(),
  feeAmount: amount.nullish(),
  extraFeeAmount: amount.nullish(),
  /** A sentence when failed, e.g. "Deposit timeout". */
  failureReason: z.string().nullish(),
  /** The customer's deposit transaction. One documented example shows a float here: anything but a string is no hash. */
  depositHash: z.string().nullish().catch(null),
  refundHash: z.string().nullish().catch(null),
  refundWalletAddress: z.string().nullish(),
  payoutMethod: z.string().nullish(),
  quoteExpiresAt: z.string().nullish(),
  /** The crypto currency sold, as `GET /v3/currencies` lists it. */
  baseCurrency: MoonpayCurrencySchema.pick({ code: true, metadata: true }).nullish(),
  /** The fiat currency paid out. */
  quoteCurrency: z.object({ code: z.string().min(1) }).nullish(),
});
export type MoonpaySellTransaction = z.infer<typeof MoonpaySellTransactionSchema>;

/** `GET /v3/sell_transactions/ext/{externalTransactionId}`: documented as one object; the buy one is an array: both are read. */
export const MoonpaySellTransactionsSchema = z.union([
  z.array(MoonpaySellTransactionSchema),
  MoonpaySellTransactionSchema.transform((t) => [t]),
]);

/** The documented sell webhook types; `sell_transaction_requote_required` is from MoonPay's webhook spec as quoted by a third party. */
export const MOONPAY_SELL_WEBHOOK_TYPES = [
  'sell_transaction_created',
  'sell_transaction_updated',
  'sell_transaction_failed',
  'sell_transaction_requote_required',
] as const;

export const MOONPAY_SELL_WEBHOOK_PREFIX = 'sell_transaction_';

/** A sell webhook: `{type: "sell_transaction_…", data: <sell transaction>}`. */
export const MoonpaySellWebhookSchema = z.object({
  type: z.enum(MOONPAY_SELL_WEBHOOK_TYPES),
  data: MoonpaySellTransactionSchema,
});
