/** The answers and events of Sandbox Pay's sell (off-ramp) API (docs/providers.md, "Sell (off-ramp)"). */
import { z } from 'zod';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';
import { SANDBOX_SELL_STATUSES } from './sell-status-map';

const decimalString = z.string().regex(PROVIDER_DECIMAL_TEXT);
const limits = z.object({ min: decimalString, max: decimalString });

export const SandboxSellCurrenciesSchema = z.object({
  fiat: z.array(z.object({ code: z.string() })),
  crypto: z.array(z.object({ ticker: z.string(), network: z.string(), min_amount: decimalString, max_amount: decimalString })),
});

export const SandboxSellCountriesSchema = z.object({
  countries: z.array(z.object({ code: z.string().length(2), states: z.array(z.string()).optional() })),
});

export const SandboxPayoutMethodsSchema = z.object({
  payout_methods: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      fee_rate: decimalString,
      fee_fixed_usd: decimalString,
      limits: z.record(z.string(), limits),
    }),
  ),
});

export const SandboxSellQuoteSchema = z.object({
  quote_id: z.string(),
  crypto_currency: z.string(),
  network: z.string(),
  crypto_amount: decimalString,
  fiat_currency: z.string(),
  /** The payout, fees taken off. */
  fiat_amount: decimalString,
  price: decimalString,
  processing_fee: decimalString,
  network_fee: decimalString,
  payout_method: z.string(),
  expires_at: z.iso.datetime(),
});
export type SandboxSellQuote = z.infer<typeof SandboxSellQuoteSchema>;

/** The deposit instruction: exactly these fields (another, such as a second memo field, refuses the answer). */
export const SandboxDepositSchema = z.strictObject({
  address: z.string().min(1),
  memo: z.string().min(1).optional(),
  network: z.string().min(1),
  amount: decimalString,
  expires_at: z.iso.datetime(),
});

export const SandboxSellOrderSchema = z.object({
  id: z.string().min(1),
  partner_order_id: z.string(),
  side: z.literal('sell'),
  status: z.enum(SANDBOX_SELL_STATUSES),
  crypto_currency: z.string(),
  network: z.string(),
  /** The crypto amount the order was made for. */
  crypto_amount: decimalString,
  /** The crypto amount that arrived, once a deposit has. */
  received_crypto_amount: decimalString.optional(),
  fiat_currency: z.string(),
  /** The payout, fees taken off: computed again from what arrived. */
  fiat_amount: decimalString,
  processing_fee: decimalString,
  network_fee: decimalString,
  payout_method: z.string(),
  country: z.string(),
  state: z.string().optional(),
  refund_address: z.string(),
  deposit: SandboxDepositSchema,
  deposit_tx_hash: z.string().optional(),
  payout_reference: z.string().optional(),
  refund_tx_hash: z.string().optional(),
  failure_reason: z.string().optional(),
  checkout_url: z.url(),
  return_url: z.string().optional(),
  /** When the sandbox made the order; another shape reads as absent rather than refusing the order. */
  created_at: z.string().nullish().catch(undefined),
  updated_at: z.iso.datetime(),
});
export type SandboxSellOrder = z.infer<typeof SandboxSellOrderSchema>;

export const SANDBOX_SELL_EVENT_TYPE = 'sell_order.status_changed';

export const SandboxSellWebhookSchema = z.object({
  event_id: z.string().min(1),
  event_type: z.literal(SANDBOX_SELL_EVENT_TYPE),
  side: z.literal('sell'),
  order: SandboxSellOrderSchema,
});
