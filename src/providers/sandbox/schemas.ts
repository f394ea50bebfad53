import { z } from 'zod';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';
import { flatStringShape } from '../kit/flat-shape';
import { SANDBOX_STATUSES } from './status-map';

const decimalString = z.string().regex(PROVIDER_DECIMAL_TEXT);

export const SandboxQuoteSchema = z.object({
  quote_id: z.string(),
  fiat_amount: decimalString,
  crypto_amount: decimalString,
  price: decimalString,
  processing_fee: decimalString,
  network_fee: decimalString,
  payment_method: z.string(),
  expires_at: z.iso.datetime(),
});
export type SandboxQuote = z.infer<typeof SandboxQuoteSchema>;

/**
 * SandboxQuoteSchema's check without zod, for the quote every offers request asks each provider for:
 * the same fields and patterns (z.iso.datetime() is zod's own pattern with its defaults).
 */
export const sandboxQuoteShape = flatStringShape<keyof SandboxQuote>({
  quote_id: null,
  fiat_amount: PROVIDER_DECIMAL_TEXT,
  crypto_amount: PROVIDER_DECIMAL_TEXT,
  price: PROVIDER_DECIMAL_TEXT,
  processing_fee: PROVIDER_DECIMAL_TEXT,
  network_fee: PROVIDER_DECIMAL_TEXT,
  payment_method: null,
  expires_at: z.regexes.datetime({ precision: null, offset: false, local: false }),
});

export const SandboxOrderSchema = z.object({
  id: z.string(),
  partner_order_id: z.string(),
  status: z.enum(SANDBOX_STATUSES),
  fiat_currency: z.string().optional(),
  /** What the customer pays, fees included. */
  fiat_amount: decimalString.optional(),
  crypto_currency: z.string().optional(),
  network: z.string().optional(),
  wallet_address: z.string().optional(),
  crypto_amount: decimalString,
  checkout_url: z.url(),
  failure_reason: z.string().optional(),
  tx_hash: z.string().optional(),
  /** When the sandbox made the order; another shape reads as absent rather than refusing the order. */
  created_at: z.string().nullish().catch(undefined),
  updated_at: z.iso.datetime(),
});
export type SandboxOrder = z.infer<typeof SandboxOrderSchema>;

export const SandboxWebhookSchema = z.object({
  event_id: z.string().min(1),
  event_type: z.literal('order.status_changed'),
  order: SandboxOrderSchema,
});

export const SandboxErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    min_amount: z.string().optional(),
    max_amount: z.string().optional(),
  }),
});

export const SandboxCurrenciesSchema = z.object({
  fiat: z.array(z.object({ code: z.string() })),
  crypto: z.array(z.object({ ticker: z.string(), network: z.string() })),
});

export const SandboxCountriesSchema = z.object({
  countries: z.array(z.object({ code: z.string().length(2), states: z.array(z.string()).optional() })),
});

export const SandboxPaymentMethodsSchema = z.object({
  payment_methods: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      fee_rate: decimalString,
      fee_fixed_usd: decimalString,
      limits: z.record(z.string(), z.object({ min: decimalString, max: decimalString })),
    }),
  ),
});
