/**
 * Mercuryo's off-ramp messages (docs/providers/mercuryo.md, "Sell (off-ramp)"): the sell quote
 * (`GET /public/convert?type=sell`), the sell limits and the off-ramp flags of the currency list.
 * The sell and deposit legs of the lookup and of callbacks are the buy side's operation schemas
 * (schemas.ts): Mercuryo documents one shape for every operation type.
 */
import { z } from 'zod';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

const decimalString = z.string().regex(PROVIDER_DECIMAL_TEXT);
const limits = z.object({ min: decimalString, max: decimalString });

/**
 * `GET /public/convert?type=sell` (api-migration-docs Widget_API_Mercuryo_v1.6.md 4.3.2): crypto in
 * (`amount`), fiat out (`fiat_amount`), one `fee` in `fee_currency`; no quote id, no expiry.
 */
export const MercuryoSellConvertSchema = z.object({
  data: z.object({
    type: z.literal('sell'),
    currency: z.string(),
    amount: decimalString,
    fiat_currency: z.string(),
    fiat_amount: decimalString,
    rate: decimalString.optional(),
    fee: decimalString,
    fee_currency: z.string(),
  }),
});
export type MercuryoSellConvert = z.infer<typeof MercuryoSellConvertSchema>['data'];

/**
 * `GET /lib/limits/sell`, "Limits for all enabled sell currency pairs" (widget.docs.mercuryo.io
 * off-ramp guide); the item shape is a third party's live read, not Mercuryo's documentation, so an
 * item that does not read is dropped rather than failing the catalogue.
 */
const SellLimitItemSchema = z.object({
  crypto: z.string(),
  network: z.string(),
  fiat: z.string(),
  fiat_limits: limits,
  crypto_limits: limits,
});
export type MercuryoSellLimit = z.infer<typeof SellLimitItemSchema>;
export const MercuryoSellLimitsSchema = z.object({
  data: z.array(z.unknown()).transform((items) => items.flatMap((item) => SellLimitItemSchema.safeParse(item).data ?? [])),
});

/** `GET /lib/currencies` read for the off-ramp: which crypto × network the widget sells (`widget_offramp_enabled`). */
export const MercuryoSellCurrenciesSchema = z.object({
  data: z.object({
    config: z.object({
      crypto_currencies: z.array(
        z.object({
          currency: z.string(),
          network: z.string(),
          widget_offramp_enabled: z.boolean().optional(),
          restricted_countries_offramp: z.array(z.string()).nullish(),
        }),
      ),
    }),
  }),
});
export type MercuryoSellCurrencies = z.infer<typeof MercuryoSellCurrenciesSchema>['data'];

/** The operation types of a sell: `deposit` (the crypto reaches Mercuryo) and `sell` (the exchange and the card payout). */
export const MERCURYO_SELL_TYPES = ['deposit', 'sell'] as const;
export type MercuryoSellType = (typeof MERCURYO_SELL_TYPES)[number];
export const isMercuryoSellType = (type: unknown): type is MercuryoSellType =>
  typeof type === 'string' && (MERCURYO_SELL_TYPES as readonly string[]).includes(type);
