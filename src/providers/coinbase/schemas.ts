import { z } from 'zod';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

const decimalText = z.string().regex(PROVIDER_DECIMAL_TEXT);

/** Coinbase's money: `{value, currency}`, the value a decimal string. */
export const CoinbaseAmountSchema = z.object({ value: decimalText, currency: z.string().min(1) });
export type CoinbaseAmount = z.infer<typeof CoinbaseAmountSchema>;

/** `GET /onramp/v1/buy/config`: the countries served, their served subdivisions (US states) and payment methods. */
export const CoinbaseBuyConfigSchema = z.object({
  countries: z.array(
    z.object({
      id: z.string().length(2),
      subdivisions: z.array(z.string()).nullish(),
      paymentMethods: z.array(z.object({ id: z.string().min(1) })).nullish(),
    }),
  ),
});
export type CoinbaseBuyConfig = z.infer<typeof CoinbaseBuyConfigSchema>;

const NetworkSchema = z.object({
  name: z.string().min(1),
  displayName: z.string().nullish(),
  contractAddress: z.string().nullish(),
  chainId: z.string().nullish(),
});
export type CoinbaseNetwork = z.infer<typeof NetworkSchema>;

/** One crypto asset of the buy options: its UUID, symbol and the networks it is sold on. */
export const CoinbasePurchaseCurrencySchema = z.object({
  id: z.string().min(1),
  name: z.string().nullish(),
  symbol: z.string().min(1),
  networks: z.array(NetworkSchema),
});
export type CoinbasePurchaseCurrency = z.infer<typeof CoinbasePurchaseCurrencySchema>;

/** `GET /onramp/v1/buy/options?country=&subdivision=`: what can be bought in one place, with each fiat's limits per payment method. */
export const CoinbaseBuyOptionsSchema = z.object({
  paymentCurrencies: z.array(
    z.object({
      id: z.string().min(1),
      limits: z.array(z.object({ id: z.string().min(1), min: decimalText, max: decimalText })),
    }),
  ),
  purchaseCurrencies: z.array(CoinbasePurchaseCurrencySchema),
});
export type CoinbaseBuyOptions = z.infer<typeof CoinbaseBuyOptionsSchema>;

/** `POST /onramp/v1/buy/quote`. */
export const CoinbaseBuyQuoteSchema = z.object({
  paymentTotal: CoinbaseAmountSchema,
  paymentSubtotal: CoinbaseAmountSchema,
  purchaseAmount: CoinbaseAmountSchema,
  coinbaseFee: CoinbaseAmountSchema,
  networkFee: CoinbaseAmountSchema,
  quoteId: z.string().min(1),
  onrampUrl: z.string().nullish(),
});
export type CoinbaseBuyQuote = z.infer<typeof CoinbaseBuyQuoteSchema>;

/** `POST /onramp/v1/token`: a single-use session token, valid 5 minutes. */
export const CoinbaseSessionTokenSchema = z.object({ token: z.string().min(1) });

/** A buy transaction, as the transaction status API and the webhooks show it. */
export const CoinbaseTransactionSchema = z.object({
  transactionId: z.string().min(1),
  /** Kept as any string: the status map refuses one Coinbase does not document. */
  status: z.string().min(1),
  partnerUserRef: z.string().nullish(),
  purchaseCurrency: z.string().nullish(),
  purchaseNetwork: z.string().nullish(),
  purchaseAmount: CoinbaseAmountSchema.nullish(),
  paymentTotal: CoinbaseAmountSchema.nullish(),
  paymentSubtotal: CoinbaseAmountSchema.nullish(),
  coinbaseFee: CoinbaseAmountSchema.nullish(),
  networkFee: CoinbaseAmountSchema.nullish(),
  paymentMethod: z.string().nullish(),
  walletAddress: z.string().nullish(),
  contractAddress: z.string().nullish(),
  txHash: z.string().nullish(),
  /** When Coinbase made the transaction (ISO 8601); another shape reads as absent rather than refusing the order. */
  createdAt: z.string().nullish().catch(undefined),
  failureReason: z.string().nullish(),
  errorCode: z.string().nullish(),
});
export type CoinbaseTransaction = z.infer<typeof CoinbaseTransactionSchema>;

/**
 * `GET /onramp/v1/buy/user/{partnerUserRef}/transactions` and the list of all buy transactions,
 * `GET /onramp/v1/buy/transactions`: newest first, `nextPageKey` asking for the next page (empty
 * or absent on the last).
 */
export const CoinbaseTransactionsSchema = z.object({
  transactions: z.array(CoinbaseTransactionSchema),
  nextPageKey: z.string().nullish(),
  totalCount: z.union([z.string(), z.number()]).nullish(),
});
export type CoinbaseTransactionPage = z.infer<typeof CoinbaseTransactionsSchema>;

/** The body of an Onramp webhook: the transaction's fields beside `eventType`. */
export const CoinbaseWebhookSchema = CoinbaseTransactionSchema.extend({
  eventType: z.enum([
    'onramp.transaction.created',
    'onramp.transaction.updated',
    'onramp.transaction.success',
    'onramp.transaction.failed',
  ]),
});

/** CDP's error body. */
export const CoinbaseErrorSchema = z.object({
  errorType: z.string().optional(),
  errorMessage: z.string().optional(),
  message: z.string().optional(),
});
