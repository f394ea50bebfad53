import { z } from 'zod';
import { decimal } from '../../domain/money';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

/** Onramp.money writes amounts as JSON numbers (some endpoints as strings): read as decimal text. */
const amount = z
  .union([z.number().nonnegative().finite(), z.string().regex(PROVIDER_DECIMAL_TEXT)])
  .transform((value) => decimal(value).toFixed());
/** Ids are integers, written as numbers or as digit strings (coinSymbolMapping mixes both). */
const id = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d{1,12}$/)
    .transform(Number),
]);

/** Every answer: `status` 1 for success, 0 otherwise, with `code` and the endpoint's `data`. */
const answer = <T extends z.ZodType>(data: T) => z.object({ status: z.literal(1), code: z.number().optional(), data });

/** `POST /onramp/api/v2/common/transaction/allConfigMapping`: symbol to id, for fiat, coins and chains. */
export const OnrampMoneyConfigMappingSchema = answer(
  z.object({
    fiatSymbolMapping: z.record(z.string(), id),
    coinSymbolMapping: z.record(z.string(), id),
    chainSymbolMapping: z.record(z.string(), id),
  }),
);
export type OnrampMoneyConfigMapping = z.infer<typeof OnrampMoneyConfigMappingSchema>['data'];

/** `POST /onramp/api/v2/common/transaction/allChainMapping`: each coin's chains, and each chain's symbol. */
export const OnrampMoneyChainMappingSchema = answer(
  z.object({
    allCoinConfig: z.record(z.string(), z.object({ coinId: id, networks: z.array(id) })),
    networkConfig: z.record(z.string(), z.object({ chainSymbol: z.string() })),
  }),
);
export type OnrampMoneyChainMapping = z.infer<typeof OnrampMoneyChainMappingSchema>['data'];

/** `POST /onramp/api/v2/common/transaction/limits` with `type: 1`: min and max per fiatType. */
export const OnrampMoneyLimitsSchema = answer(z.object({ onramp: z.record(z.string(), z.object({ min: amount, max: amount })) }));
export type OnrampMoneyLimits = z.infer<typeof OnrampMoneyLimitsSchema>['data']['onramp'];

/** `GET /onramp/api/v2/common/public/fetchAllCountryConfig`: per fiatType, whether it is active and its payment methods. */
export const OnrampMoneyCountryConfigSchema = answer(
  z.object({
    buy: z.record(z.string(), z.object({ isActive: z.number(), paymentMethods: z.record(z.string(), z.number()) })),
  }),
);
export type OnrampMoneyCountryConfig = z.infer<typeof OnrampMoneyCountryConfigSchema>['data']['buy'];

/** `POST /onramp/api/v2/common/transaction/quotes`: every fee is in the fiat currency. */
export const OnrampMoneyQuoteSchema = answer(
  z.object({
    rate: amount,
    quantity: amount,
    onrampFee: amount,
    clientFee: amount,
    gatewayFee: amount,
    gasFee: amount,
  }),
);
export type OnrampMoneyQuote = z.infer<typeof OnrampMoneyQuoteSchema>['data'];

/**
 * One onramp transaction as `merchantHistory` lists it and as the webhook carries it: the same
 * fields (onramp.gitbook.io, Merchant Transaction History and Webhook updates).
 */
export const OnrampMoneyTransactionSchema = z.object({
  orderId: id,
  walletAddress: z.string().nullish(),
  coinId: id.nullish(),
  chainId: id.nullish(),
  fiatType: id.nullish(),
  fiatAmount: amount.nullish(),
  expectedCryptoAmount: amount.nullish(),
  actualCryptoAmount: amount.nullish(),
  status: z.number().int(),
  transactionHash: z.string().nullish(),
  merchantRecognitionId: z.union([z.string(), z.number().transform(String)]).nullish(),
  /** When Onramp.money made the transaction (ISO 8601); another shape reads as absent rather than refusing the order. */
  createdAt: z.string().nullish().catch(undefined),
  webhookTrials: z.number().optional(),
});
export type OnrampMoneyTransaction = z.infer<typeof OnrampMoneyTransactionSchema>;

/** `POST /onramp/api/v1/transaction/merchantHistory`: a page of transactions. */
export const OnrampMoneyHistorySchema = answer(z.array(OnrampMoneyTransactionSchema));

/** Error answers carry `status: 0`, a `code` and an `error` (or `message`) text. */
export const OnrampMoneyErrorSchema = z.object({
  status: z.number().optional(),
  code: z.number().optional(),
  error: z.string().optional(),
  message: z.string().optional(),
});
