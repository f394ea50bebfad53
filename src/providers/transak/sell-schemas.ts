/**
 * Transak's sell (off-ramp) payloads, as far as the sell adapter reads them: the order of the
 * Partner API (`GET /partners/api/v2/order/{id}`, `GET /partners/api/v2/orders`) and of the webhook
 * JWT, with the deposit address Transak gives the customer in `cryptoPaymentData.paymentAddress`
 * and the deposit's deadline `autoExpiresAt` (the Partner API reference's "Sell Order" example).
 * Unknown fields are ignored; amounts become decimal strings.
 */
import { z } from 'zod';
import { decimal } from '../../domain/money';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

const amount = z.union([z.number().nonnegative(), z.string().regex(PROVIDER_DECIMAL_TEXT)]).transform((value) => decimal(value).toFixed());

/** The widget parameters of a sell session (`POST /api/v2/auth/session`, docs.transak.com query parameters). */
export interface TransakSellWidgetParams {
  apiKey: string;
  referrerDomain: string;
  productsAvailed: 'SELL';
  cryptoCurrencyCode: string;
  network: string;
  /** What the customer sells (fixed in the widget when passed). */
  cryptoAmount: string;
  fiatCurrency: string;
  /** The payout method's id, e.g. `sepa_bank_transfer`. */
  paymentMethod: string;
  /** The customer's wallet, as Gem Wallet sends it for a sell (its meaning for a sell: UNCONFIRMED). */
  walletAddress: string;
  partnerOrderId: string;
  partnerCustomerId: string;
  redirectURL?: string;
}

/** A sell order as Transak's Partner API and webhooks carry it. */
export const TransakSellOrderSchema = z
  .object({
    id: z.string().optional(),
    _id: z.string().optional(),
    partnerOrderId: z.string().optional(),
    partnerCustomerId: z.string().optional(),
    status: z.string().min(1),
    /** `SELL` for an off-ramp order; the adapter refuses any other. */
    isBuyOrSell: z.string().optional(),
    cryptoCurrency: z.string().optional(),
    network: z.string().optional(),
    tokenContractAddress: z.string().nullish(),
    /** What the customer sends. */
    cryptoAmount: amount.nullish(),
    fiatCurrency: z.string().nullish(),
    /** What is paid out to the customer, fees taken off (242.21 = 255.41 − 13.20 in the documented example). */
    fiatAmount: amount.nullish(),
    totalFeeInFiat: amount.nullish(),
    /** Where the customer sends the crypto: Transak's deposit address for this order. */
    cryptoPaymentData: z.object({ paymentAddress: z.string().nullish() }).nullish(),
    /** The deposit's deadline (ISO 8601); another shape reads as absent. */
    autoExpiresAt: z.string().nullish().catch(undefined),
    createdAt: z.string().nullish().catch(undefined),
    updatedAt: z.string().optional(),
  })
  .refine((order) => order.id !== undefined || order._id !== undefined, { message: 'an order carries id or _id' });
export type TransakSellOrder = z.infer<typeof TransakSellOrderSchema>;

export const TransakSellOrderResponseSchema = z.object({ data: TransakSellOrderSchema });
export const TransakSellOrdersResponseSchema = z.object({ data: z.array(TransakSellOrderSchema) });

/** The claims of a sell order's webhook JWT. */
export const TransakSellWebhookClaimsSchema = z.object({
  eventID: z.string(),
  webhookData: TransakSellOrderSchema,
});
