import { z } from 'zod';

/** A decimal Alchemy Pay sends as a string or a JSON number; kept as its decimal text. */
const amount = z.union([z.string(), z.number()]).transform((v) => String(v));

/** Every Open API answer: `{success, returnCode, returnMsg, extend, data}`; `returnCode` "0000" is success. */
export function envelope<S extends z.ZodType>(data: S) {
  return z.object({
    success: z.boolean(),
    returnCode: z.string(),
    returnMsg: z.string().nullish(),
    data: data.nullish(),
  });
}

export const AlchemypayRefusalSchema = z.object({
  success: z.boolean().optional(),
  returnCode: z.string(),
  returnMsg: z.string().nullish(),
});

/** One entry of `GET /open/api/v4/merchant/crypto/list`. */
export const AlchemypayCryptoSchema = z.object({
  crypto: z.string().min(1),
  network: z.string().min(1),
  buyEnable: z.union([z.number(), z.string()]).transform((v) => String(v) === '1'),
});
export const AlchemypayCryptoListSchema = envelope(z.array(AlchemypayCryptoSchema));

/** One entry of `POST /open/api/v4/merchant/fiat/info` (the fiat currencies a crypto and network sell for). */
export const AlchemypayFiatSchema = z.object({
  currency: z.string().min(1),
  country: z.string().length(2),
  buyEnable: z.union([z.number(), z.string()]).transform((v) => String(v) === '1'),
  minBuyFiatAmount: amount.nullish(),
  maxBuyFiatAmount: amount.nullish(),
});
export type AlchemypayFiat = z.infer<typeof AlchemypayFiatSchema>;
export const AlchemypayFiatListSchema = envelope(z.array(AlchemypayFiatSchema));

/** One entry of `POST /open/api/v4/merchant/query/cryptoFiatMethod`. */
export const AlchemypayMethodSchema = z.object({
  country: z.string().nullish(),
  payWayCode: z.string().min(1),
  minPurchaseAmount: amount,
  maxPurchaseAmount: amount,
});
export type AlchemypayMethod = z.infer<typeof AlchemypayMethodSchema>;
export const AlchemypayMethodListSchema = envelope(z.array(AlchemypayMethodSchema));

/** `POST /open/api/v4/merchant/order/quote` (side BUY, type ONE): fees in the fiat currency. */
export const AlchemypayQuoteSchema = z.object({
  crypto: z.string().optional(),
  cryptoPrice: amount.optional(),
  cryptoQuantity: amount,
  fiat: z.string().optional(),
  rampFee: amount,
  networkFee: amount,
  payWayCode: z.string().optional(),
});
export type AlchemypayQuote = z.infer<typeof AlchemypayQuoteSchema>;
export const AlchemypayQuoteAnswerSchema = envelope(AlchemypayQuoteSchema);

/**
 * An on-ramp order as the order query (`GET /open/api/v4/merchant/query/trade`) and the webhooks
 * carry it. Every field but the status is optional: a failed payment's webhook leaves many empty.
 */
export const AlchemypayOrderSchema = z.object({
  orderNo: z.string().min(1),
  merchantOrderNo: z.string().nullish(),
  /** Kept as any string: a status Alchemy Pay adds later must not make the answer unreadable. */
  status: z.string().min(1),
  crypto: z.string().nullish(),
  network: z.string().nullish(),
  address: z.string().nullish(),
  fiat: z.string().nullish(),
  /** The fiat amount the customer pays, fees included. */
  amount: amount.nullish(),
  cryptoQuantity: amount.nullish(),
  rampFee: amount.nullish(),
  networkFee: amount.nullish(),
  payType: z.string().nullish(),
  txHash: z.string().nullish(),
  /** When Alchemy Pay made the order; another shape reads as absent rather than refusing the order. */
  createTime: z.string().nullish().catch(undefined),
  message: z.string().nullish(),
  returnMsg: z.string().nullish(),
});
export type AlchemypayOrder = z.infer<typeof AlchemypayOrderSchema>;
export const AlchemypayOrderAnswerSchema = envelope(AlchemypayOrderSchema);

/** An on-ramp webhook body: the order's fields, the deprecated SHA-1 `signature` and the HMAC `newSignature`. */
export const AlchemypayWebhookSchema = AlchemypayOrderSchema.extend({
  appId: z.string().nullish(),
  newSignature: z.string().min(1),
});
