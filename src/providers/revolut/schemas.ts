import BigNumber from 'bignumber.js';
import { z } from 'zod';

/**
 * Revolut sends amounts as JSON numbers. Each becomes a plain decimal string at once (bignumber.js
 * reads the number's shortest round-trip form); no arithmetic is ever done on the float.
 */
const amount = z
  .number()
  .nonnegative()
  .transform((n) => new BigNumber(n).toFixed());

/** `MoneyFiat`: an amount and its ISO 4217 currency. */
const MoneyFiatSchema = z.object({ amount, currency: z.string().min(1) });

/** `GET /config`: the buy configuration. */
export const RevolutConfigSchema = z.object({
  version: z.string(),
  countries: z.array(z.string()),
  fiat: z.array(z.object({ currency: z.string().min(1), min_limit: amount, max_limit: amount })),
  crypto: z.array(
    z.object({
      /** The currency-blockchain pair's id, used by every other call (e.g. `USDT-ETH`). */
      id: z.string().min(1),
      currency: z.string().min(1),
      blockchain: z.string().min(1),
      // The documentation's own example shows a number here; anything but a string means "no contract".
      smartContractAddress: z.string().nullish().catch(null),
    }),
  ),
  feePercentages: z.array(z.number()).optional(),
  payment_methods: z.array(z.string()),
});
export type RevolutRampConfig = z.infer<typeof RevolutConfigSchema>;
export type RevolutCrypto = RevolutRampConfig['crypto'][number];

/** `GET /quote`. `service_fee` is Revolut's fee and the partner fee together. */
export const RevolutQuoteSchema = z.object({
  service_fee: MoneyFiatSchema,
  network_fee: MoneyFiatSchema,
  crypto: z.object({ amount, currencyId: z.string().min(1) }),
  partner_fee: MoneyFiatSchema,
});
export type RevolutQuote = z.infer<typeof RevolutQuoteSchema>;

/** `GET /buy`. */
export const RevolutRedirectSchema = z.object({ ramp_redirect_url: z.url({ protocol: /^https?$/ }) });

const FeesSchema = z.object({ ramp_fee: MoneyFiatSchema, partner_fee: MoneyFiatSchema, network_fee: MoneyFiatSchema });

/** `GET /orders/{order_id}?wallet=`: a buy order, named by the partner's own id. */
export const RevolutOrderSchema = z.object({
  /** The external id the order was created with (`orderId` of `/buy`): the broker's order id. */
  id: z.string().min(1),
  /** What the customer paid for the crypto, fees excluded. */
  fiat: MoneyFiatSchema,
  crypto: z.object({
    amount,
    /** The `/config` crypto id. One example of the documentation names it `currency`: either is read. */
    currencyId: z.string().min(1).optional(),
    currency: z.string().min(1).optional(),
  }),
  fees: FeesSchema,
  payment: z.string().optional(),
  /** When Revolut made the order (ISO 8601); another shape reads as absent rather than refusing the order. */
  created_at: z.string().nullish().catch(undefined),
  updated_at: z.string().optional(),
  /** Kept as any string: a status Revolut adds later must not make the answer unreadable. */
  status: z.string().min(1),
  fail_reason: z.string().nullish(),
  wallet: z.string().min(1),
  transaction_hash: z.string().nullish(),
});
export type RevolutOrder = z.infer<typeof RevolutOrderSchema>;

/** A webhook body: the order it is about, its wallet, and the event. */
export const RevolutWebhookSchema = z.object({
  order_id: z.string().min(1),
  wallet: z.string().min(1),
  event: z.string().min(1),
});
export type RevolutWebhook = z.infer<typeof RevolutWebhookSchema>;

/** The error body of 400 and 404 answers. */
export const RevolutErrorSchema = z.object({ message: z.string() });
