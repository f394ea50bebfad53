/**
 * Transak's request, response and webhook payloads (docs.transak.com API reference), as far as the
 * adapter reads them. Unknown fields are ignored. Amounts arrive as JSON numbers (some community
 * code has seen strings); both become decimal strings here.
 */
import { z } from 'zod';
import { decimal } from '../../domain/money';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

const amount = z.union([z.number().nonnegative(), z.string().regex(PROVIDER_DECIMAL_TEXT)]).transform((value) => decimal(value).toFixed());

/** `{ "error": { "statusCode", "name", "message" } }`, the body of every refusal. */
export const TransakErrorSchema = z.object({
  error: z.object({
    statusCode: z.number().int().optional(),
    name: z.string().optional(),
    message: z.string(),
  }),
});
export type TransakErrorBody = z.infer<typeof TransakErrorSchema>;

/** `POST /partners/api/v2/refresh-token` → the partner access token and its expiry (unix seconds). */
export const TransakAccessTokenSchema = z.object({
  data: z.object({ accessToken: z.string().min(1), expiresAt: z.number().int().positive() }),
});

/** `GET /api/v1/pricing/public/quotes`. */
export const TransakQuoteSchema = z.object({
  response: z.object({
    quoteId: z.string(),
    conversionPrice: z.number().optional(),
    fiatCurrency: z.string(),
    cryptoCurrency: z.string(),
    paymentMethod: z.string(),
    fiatAmount: amount,
    cryptoAmount: amount,
    isBuyOrSell: z.enum(['BUY', 'SELL']),
    network: z.string(),
    totalFee: amount,
    feeBreakdown: z.array(z.object({ id: z.string(), name: z.string().optional(), value: amount })),
  }),
});
export type TransakQuote = z.infer<typeof TransakQuoteSchema>['response'];

/** `GET /api/v2/countries`. */
export const TransakCountriesSchema = z.object({
  response: z.array(
    z.object({
      alpha2: z.string().length(2),
      isAllowed: z.boolean(),
      /** Sub-national rules where Transak has them (seen in community code for the US). */
      states: z.array(z.object({ code: z.string(), isAllowed: z.boolean() })).optional(),
    }),
  ),
});
export type TransakCountries = z.infer<typeof TransakCountriesSchema>['response'];

/** `GET /cryptocoverage/api/v1/public/crypto-currencies`. */
export const TransakCryptoCurrenciesSchema = z.object({
  response: z.array(
    z.object({
      symbol: z.string(),
      network: z.object({ name: z.string() }),
      address: z.string().nullish(),
      isAllowed: z.boolean(),
      isSuspended: z.boolean().optional(),
      /** Whether Transak takes the asset in (the sell catalogue's flag, as Gem Wallet reads it: UNCONFIRMED). */
      isPayInAllowed: z.boolean().optional(),
    }),
  ),
});
export type TransakCryptoCurrencies = z.infer<typeof TransakCryptoCurrenciesSchema>['response'];

/** `GET /fiat/public/v1/currencies/fiat-currencies`: payment methods and their limits per fiat. */
export const TransakFiatCurrenciesSchema = z.object({
  response: z.array(
    z.object({
      symbol: z.string(),
      isAllowed: z.boolean(),
      paymentOptions: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          isActive: z.boolean(),
          minAmount: amount.nullish(),
          maxAmount: amount.nullish(),
          /** The payout limits of a sell (fiat units), where the option pays out. */
          minAmountForPayOut: amount.nullish(),
          maxAmountForPayOut: amount.nullish(),
        }),
      ),
    }),
  ),
});
export type TransakFiatCurrencies = z.infer<typeof TransakFiatCurrenciesSchema>['response'];

/** The widget parameters the adapter sends in `POST /api/v2/auth/session`. */
export const TransakWidgetParamsSchema = z.object({
  apiKey: z.string(),
  referrerDomain: z.string(),
  productsAvailed: z.literal('BUY'),
  fiatCurrency: z.string(),
  fiatAmount: z.string(),
  cryptoCurrencyCode: z.string(),
  network: z.string(),
  walletAddress: z.string(),
  disableWalletAddressForm: z.boolean(),
  paymentMethod: z.string(),
  partnerOrderId: z.string(),
  partnerCustomerId: z.string(),
  redirectURL: z.url().optional(),
});
export type TransakWidgetParams = z.infer<typeof TransakWidgetParamsSchema>;

/** `POST /api/v2/auth/session` → a one-use widget URL, valid 5 minutes. */
export const TransakWidgetSessionSchema = z.object({ data: z.object({ widgetUrl: z.url() }) });

/** An order as `GET /partners/api/v2/order/{id}`, `GET /partners/api/v2/orders` and webhooks carry it. */
export const TransakOrderSchema = z
  .object({
    id: z.string().optional(),
    _id: z.string().optional(),
    partnerOrderId: z.string().optional(),
    partnerCustomerId: z.string().optional(),
    status: z.string().min(1),
    /** `BUY` or `SELL`; a buy order's copy may leave it out. */
    isBuyOrSell: z.string().optional(),
    walletAddress: z.string().nullish(),
    cryptoCurrency: z.string().optional(),
    network: z.string().optional(),
    /** A token's contract (webhooks; the zero address for a native coin). */
    tokenContractAddress: z.string().nullish(),
    fiatCurrency: z.string().nullish(),
    /** What the customer pays, fees included (`totalFeeInFiat` comes out of it). */
    fiatAmount: amount.nullish(),
    cryptoAmount: amount.nullish(),
    transactionHash: z.string().nullish(),
    /** When Transak made the order (ISO 8601); another shape reads as absent rather than refusing the order. */
    createdAt: z.string().nullish().catch(undefined),
    updatedAt: z.string().optional(),
  })
  .refine((order) => order.id !== undefined || order._id !== undefined, { message: 'an order carries id or _id' });
export type TransakOrder = z.infer<typeof TransakOrderSchema>;

export const TransakOrderResponseSchema = z.object({ data: TransakOrderSchema });
export const TransakOrdersResponseSchema = z.object({ data: z.array(TransakOrderSchema) });

/** A webhook body: `{"data": "<JWT signed HS256 with the partner access token>"}`. */
export const TransakWebhookBodySchema = z.object({ data: z.string().min(1) });

/** The claims of that JWT. */
export const TransakWebhookClaimsSchema = z.object({
  eventID: z.string(),
  webhookData: TransakOrderSchema,
});
