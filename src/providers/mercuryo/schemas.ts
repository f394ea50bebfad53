import { z } from 'zod';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

const decimalString = z.string().regex(PROVIDER_DECIMAL_TEXT);
const limits = z.object({ min: decimalString, max: decimalString });

/** `GET /lib/currencies`: assets per network and, per fiat currency, its payment methods and limits. */
export const MercuryoCurrenciesSchema = z.object({
  data: z.object({
    fiat: z.array(z.string()),
    crypto: z.array(z.string()),
    config: z.object({
      crypto_currencies: z.array(z.object({ currency: z.string(), network: z.string(), contract: z.string().optional() })),
    }),
    fiat_payment_methods: z.record(
      z.string(),
      z.object({ payment_methods: z.array(z.object({ code: z.string(), name: z.string() })), limits }),
    ),
  }),
});
export type MercuryoCurrencies = z.infer<typeof MercuryoCurrenciesSchema>['data'];

/** `GET /public/card-countries?type=alpha2`: lower-case country codes. */
export const MercuryoCountriesSchema = z.object({ data: z.array(z.string()) });

/** `GET /public/currency-limits`: min/max keyed by currency code, for the fiat and the crypto side. */
export const MercuryoLimitsSchema = z.object({ data: z.record(z.string(), limits) });

/** `GET /widget/buy/rate`: amounts are decimal strings; `fee`, `subtotal`, `total` are keyed by currency code. */
export const MercuryoBuyRateSchema = z.object({
  data: z.object({
    buy_token: z.string().optional(),
    currency: z.string(),
    amount: decimalString,
    fiat_currency: z.string(),
    fiat_amount: decimalString,
    rate: decimalString,
    fee: z.record(z.string(), decimalString),
    subtotal: z.record(z.string(), decimalString).optional(),
    total: z.record(z.string(), decimalString).optional(),
    kyc_limit_exceeded: z.boolean().optional(),
  }),
});
export type MercuryoBuyRate = z.infer<typeof MercuryoBuyRateSchema>['data'];

/** One operation of `GET /sdk-partner/transactions` (the object under its type key). */
export const MercuryoOperationSchema = z.object({
  id: z.string(),
  transaction_id: z.string().optional(),
  merchant_transaction_id: z.string().nullish(),
  status: z.string(),
  currency: z.string().optional(),
  amount: decimalString.optional(),
  fiat_currency: z.string().nullish(),
  fiat_amount: decimalString.nullish(),
  payment_method: z.string().nullish(),
  hash: z.string().nullish(),
  address: z.string().nullish(),
  /** "YYYY-MM-DD hh:mm:ss", read as UTC; another shape reads as absent rather than refusing the order. */
  created_at: z.string().nullish().catch(undefined),
  created_at_ts: z.number().nullish().catch(undefined),
});
export type MercuryoOperation = z.infer<typeof MercuryoOperationSchema>;

/** Each item holds the linked operations of one purchase, keyed by type (buy, mobile_pay, buy_acquirer, withdraw, ...). */
export const MercuryoTransactionsSchema = z.object({
  data: z.array(z.record(z.string(), MercuryoOperationSchema)),
});
export type MercuryoTransactions = z.infer<typeof MercuryoTransactionsSchema>;

/** The transaction data of a callback. */
export const MercuryoCallbackDataSchema = z.object({
  id: z.string(),
  merchant_transaction_id: z.string().nullish(),
  type: z.string(),
  payment_method: z.string().nullish(),
  status: z.string(),
  amount: decimalString.nullish(),
  currency: z.string().nullish(),
  fiat_amount: decimalString.nullish(),
  fiat_currency: z.string().nullish(),
  tx: z.object({ id: z.string().nullish(), address: z.string().nullish() }).nullish(),
  user: z.object({ uuid4: z.string().nullish(), country_code: z.string().nullish() }).nullish(),
  updated_at: z.string().nullish(),
  created_at_ts: z.number().nullish().catch(undefined),
  updated_at_ts: z.number().optional(),
});
export type MercuryoCallbackData = z.infer<typeof MercuryoCallbackDataSchema>;

/** Callbacks carry `{"data": {...}}`; an older page of Mercuryo's docs shows it wrapped in `payload`. */
export const MercuryoCallbackSchema = z.union([
  z.object({ data: MercuryoCallbackDataSchema }),
  z.object({ payload: z.object({ data: MercuryoCallbackDataSchema }) }),
]);

/** Mercuryo's error answers: `{status, code, message}` (fields vary by endpoint). */
export const MercuryoErrorSchema = z.object({
  status: z.number().optional(),
  code: z.number().optional(),
  message: z.string().optional(),
});
