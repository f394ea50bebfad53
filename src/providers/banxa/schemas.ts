import { z } from 'zod';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

/** Banxa sends amounts as decimal strings ("200.00", "67.1000000000000000"). */
const decimalString = z.string().regex(PROVIDER_DECIMAL_TEXT);
const optionalText = z.string().nullish();

/** `GET /v2/crypto/buy`: assets, each on one or more blockchains (`address` is the token contract, if any). */
export const BanxaCryptoListSchema = z.array(
  z.object({
    id: z.string(),
    blockchains: z.array(z.object({ id: z.string(), address: optionalText })),
  }),
);
export type BanxaCryptoList = z.infer<typeof BanxaCryptoListSchema>;

/** `GET /v2/fiats/buy`: fiat currencies with each payment method's limits in that currency. */
export const BanxaFiatListSchema = z.array(
  z.object({
    id: z.string(),
    supportedPaymentMethods: z.array(z.object({ id: z.string(), name: z.string(), minimum: decimalString, maximum: decimalString })),
  }),
);
export type BanxaFiatList = z.infer<typeof BanxaFiatListSchema>;

/** `GET /v2/countries`. */
export const BanxaCountryListSchema = z.array(z.object({ id: z.string().length(2) }));
export type BanxaCountryList = z.infer<typeof BanxaCountryListSchema>;

/** `GET /v2/countries/us/states`: the US states Banxa serves (field names as in Banxa's legacy states list). */
export const BanxaUsStatesSchema = z.object({ states: z.array(z.object({ state_code: z.string() })) });
export type BanxaUsStates = z.infer<typeof BanxaUsStatesSchema>;

/** `GET /v2/quotes/buy`. */
export const BanxaQuoteSchema = z.object({
  paymentMethodId: z.string(),
  cryptoAmount: decimalString,
  fiatAmount: decimalString,
  processingFee: decimalString,
  networkFee: decimalString,
});
export type BanxaQuote = z.infer<typeof BanxaQuoteSchema>;

/** `POST /v2/buy` body. */
export const BanxaBuyOrderRequestSchema = z.object({
  paymentMethodId: z.string(),
  crypto: z.string(),
  blockchain: z.string(),
  fiat: z.string(),
  fiatAmount: decimalString,
  walletAddress: z.string(),
  redirectUrl: z.url(),
  externalCustomerId: z.string(),
  externalOrderId: z.string(),
});
export type BanxaBuyOrderRequest = z.infer<typeof BanxaBuyOrderRequestSchema>;

/**
 * An order as `GET /v2/orders/{id}` returns it (and `POST /v2/buy`, which adds `checkoutUrl`). The
 * order list names the partner's reference `externalId`, a single order `externalOrderId`.
 */
export const BanxaOrderSchema = z.object({
  id: z.string(),
  status: z.string(),
  externalOrderId: optionalText,
  externalId: optionalText,
  orderStatusUrl: optionalText,
  checkoutUrl: optionalText,
  /** The coin, its blockchain code and, for a token, its contract. */
  crypto: z.object({ id: z.string(), blockchain: optionalText, address: optionalText }).nullish(),
  fiat: optionalText,
  /** What the customer pays, fees included. */
  fiatAmount: decimalString.nullish(),
  cryptoAmount: decimalString.nullish(),
  /** Buy: the customer's wallet. Sell: Banxa's deposit address for the order (never the customer's). */
  walletAddress: optionalText,
  /** Sell: the deposit address's memo or destination tag, where its network needs one. */
  walletAddressTag: optionalText,
  /** `BUY` or `SELL`; a buy where absent (the buy adapter's orders predate sells). */
  orderType: optionalText,
  /** The partner's `metadata` of the create call, returned as-is. */
  metadata: z.unknown().optional(),
  transactionHash: optionalText,
  /** When Banxa made the order (ISO 8601); another shape reads as absent rather than refusing the order. */
  createdAt: z.string().nullish().catch(undefined),
});
export type BanxaOrder = z.infer<typeof BanxaOrderSchema>;

/** `POST /v2/buy` answer: the new order and its one-time checkout URL. */
export const BanxaCreatedOrderSchema = BanxaOrderSchema.extend({
  status: z.string().optional(),
  checkoutUrl: z.url(),
});

/** `GET /v2/orders?start&end…`, paginated. */
export const BanxaOrderListSchema = z.object({
  orders: z.array(BanxaOrderSchema),
  pageTotal: z.number().int().nonnegative().optional(),
});

/**
 * An order webhook. Only `order_id` is always there: legacy webhooks carry nothing else, webhooks v2
 * add the status and, today, the order's amounts and `external_id`.
 */
export const BanxaWebhookSchema = z.object({
  order_id: z.string().min(1),
  status: z.string().optional(),
  status_date: optionalText,
  external_id: optionalText,
  /** `BUY` or `SELL` (webhooks v2). */
  order_type: optionalText,
  crypto_coin: optionalText,
  crypto_blockchain: optionalText,
  crypto_amount: decimalString.nullish(),
  fiat_currency: optionalText,
  fiat_amount: decimalString.nullish(),
  transaction_hash: optionalText,
});
export type BanxaWebhook = z.infer<typeof BanxaWebhookSchema>;

/** Error bodies: Hosted Checkout answers with a `code` (and a message); the legacy API with `errors[]`. */
export const BanxaErrorSchema = z.object({
  code: z.union([z.number(), z.string()]).optional(),
  message: z.string().optional(),
  errors: z.array(z.object({ code: z.union([z.number(), z.string()]).optional(), title: z.string().optional() })).optional(),
});
export type BanxaError = z.infer<typeof BanxaErrorSchema>;
