/**
 * Ramp's off-ramp (sale) messages as the adapter reads them (docs/providers/ramp.md, "Sell
 * (off-ramp)"): the off-ramp asset list, payout methods, the sell quote, `RampSale` as the sale lookup
 * answers it and sale webhooks carry it, and the webhook envelope `SaleStatusWebhookEvent`.
 */
import { z } from 'zod';
import { PROVIDER_BASE_UNITS_TEXT } from '../kit/decimal-text';
import { RampAssetSchema } from './schemas';

const amount = z.number().finite();
const baseUnits = z.string().regex(PROVIDER_BASE_UNITS_TEXT);
/** A fiat figure: a JSON number in the SDK types and the sale lookup, a string in the webhook example. */
const fiatFigure = z.union([amount, z.string().regex(/^\d{1,30}(\.\d{1,30})?$/)]);

/** GET /host-api/v3/offramp/assets: the on-ramp list's shape without its fee fields. */
export const RampOfframpAssetsSchema = z.object({
  assets: z.array(RampAssetSchema),
  currencyCode: z.string().length(3),
  minPurchaseAmount: amount,
  maxPurchaseAmount: amount,
  enabledFeatures: z.array(z.string()).optional(),
});
export type RampOfframpAssets = z.infer<typeof RampOfframpAssetsSchema>;

/** GET /host-api/v3/payout-methods; countries in lower case. */
export const RampPayoutMethodsSchema = z.array(
  z.object({
    name: z.string().min(1),
    currencies: z.array(z.string().length(3)),
    countries: z.array(z.string()).optional(),
  }),
);
export type RampPayoutMethods = z.infer<typeof RampPayoutMethodsSchema>;

/** Body of POST /host-api/v3/offramp/quote/all: the crypto amount in base units. */
export const RampSellQuoteRequestSchema = z.object({
  cryptoAssetSymbol: z.string().regex(/^[A-Z0-9]+_[A-Za-z0-9.]+$/),
  fiatCurrency: z.string().length(3),
  cryptoAmount: baseUnits,
});
export type RampSellQuoteRequest = z.infer<typeof RampSellQuoteRequestSchema>;

/** One payout method's entry of the sell quote: `fiatValue` is what the customer receives, `appliedFee` already taken off. */
export const RampSellMethodQuoteSchema = z.object({
  fiatCurrency: z.string().length(3),
  cryptoAmount: baseUnits,
  fiatValue: amount,
  appliedFee: amount,
  baseRampFee: amount.nullish(),
  hostFeeCut: amount.optional(),
});
export type RampSellMethodQuote = z.infer<typeof RampSellMethodQuoteSchema>;

/** The sell quote: one key per payout method name beside `asset`. */
export const RampSellQuoteSchema = z
  .object({ asset: RampAssetSchema.pick({ symbol: true, chain: true, decimals: true }) })
  .catchall(z.unknown());
export type RampSellQuote = z.infer<typeof RampSellQuoteSchema>;

/** `RampSale`. No field of it names a deposit address: Ramp documents none outside the browser SDK. */
export const RampSaleSchema = z.object({
  id: z.string().min(1),
  /** Read capability for the sale: the `secret` of the sale lookup. */
  saleViewToken: z.string().min(1).optional(),
  /** On the lookup's answer; a webhook's status is its envelope's `type`. */
  status: z.string().min(1).optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  transactionHash: z.string().min(1).nullish(),
  crypto: z.object({
    amount: baseUnits,
    assetInfo: RampAssetSchema.pick({ symbol: true, chain: true, decimals: true, address: true, name: true, type: true }),
    status: z.string().nullish(),
  }),
  fiat: z.object({
    amount: fiatFigure,
    currencySymbol: z.string().length(3),
    status: z.string().nullish(),
    payoutMethod: z.string().nullish(),
  }),
  fees: z.object({ amount: fiatFigure, currencySymbol: z.string() }).nullish(),
  exchangeRate: fiatFigure.nullish(),
});
export type RampSale = z.infer<typeof RampSaleSchema>;

/** `mode` of every sale webhook; a purchase webhook has none. */
export const RAMP_OFFRAMP_MODE = 'OFFRAMP';

/** Whether a body says it is a sale event (`mode: "OFFRAMP"`); anything unreadable is not. */
export function marksRampSale(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { mode?: unknown }).mode === RAMP_OFFRAMP_MODE;
}

/** Body of an offrampWebhookV3Url call (`SaleStatusWebhookEvent`); `type` is any string so that a new one is refused by the mapping, not the shape. */
export const RampSaleWebhookSchema = z.object({
  id: z.string().min(1).optional(),
  type: z.string().min(1),
  mode: z.literal(RAMP_OFFRAMP_MODE),
  payload: RampSaleSchema,
});
export type RampSaleWebhook = z.infer<typeof RampSaleWebhookSchema>;
