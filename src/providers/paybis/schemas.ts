import { z } from 'zod';
import { PROVIDER_DECIMAL_TEXT } from '../kit/decimal-text';

/** Paybis writes amounts as decimal strings ("100.00", "0.00123456"). */
const decimalString = z.string().regex(PROVIDER_DECIMAL_TEXT);
const optionalText = z.string().nullish();
const money = z.object({ amount: decimalString, currencyCode: z.string() });

/** `GET /v2/public/currency/pairs/buy-crypto`: fiat → crypto pairs; `meta.currencies` names each code's blockchain (crypto only). */
export const PaybisPairsSchema = z.object({
  data: z.array(z.object({ from: z.string(), to: z.array(z.object({ currencyCode: z.string() })) })),
  meta: z.object({ currencies: z.array(z.object({ code: z.string(), blockchainName: optionalText })) }),
});
export type PaybisPairs = z.infer<typeof PaybisPairsSchema>;

/** `GET /v2/public/payment-method-list-with-limits`: each method's limits per pair, in the fiat (`from`) currency. */
export const PaybisPaymentMethodsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      pairs: z.array(
        z.object({
          from: z.string(),
          to: z.array(z.object({ currencyCode: z.string(), minAmount: decimalString, maxAmount: decimalString })),
        }),
      ),
    }),
  ),
});
export type PaybisPaymentMethods = z.infer<typeof PaybisPaymentMethodsSchema>;

/** `POST /v2/quote` body: a buy quote for an amount of `currencyCodeFrom` (the fiat), fees included. */
export interface PaybisQuoteRequest {
  currencyCodeFrom: string;
  currencyCodeTo: string;
  amount: string;
  directionChange: 'from';
  isReceivedAmount: false;
  paymentMethod: string;
}

/** `POST /v2/quote` answer: one entry per payment method asked for, its fees in the fiat currency. */
export const PaybisQuoteSchema = z.object({
  id: z.string().min(1),
  currencyCodeFrom: z.string(),
  currencyCodeTo: z.string(),
  paymentMethods: z.array(
    z.object({
      id: z.string(),
      amountFrom: money,
      amountTo: money,
      fees: z.object({ networkFee: money, serviceFee: money }),
    }),
  ),
  expiresAt: z.iso.datetime({ offset: true }).nullish(),
});
export type PaybisQuote = z.infer<typeof PaybisQuoteSchema>;

/** `POST /v2/request` body (server side, signed): the customer, the broker's order id, the quote and the wallet. */
export interface PaybisRequestBody {
  partnerUserId: string;
  partnerTransactionId: string;
  quoteId: string;
  cryptoWalletAddress: { address: string; currencyCode: string };
  flow: 'buyCrypto';
  paymentMethod: string;
  locale: string;
  userIp?: string;
}

/** `POST /v2/request` answer: the id the widget is opened with. */
export const PaybisRequestCreatedSchema = z.object({ requestId: z.string().min(1) });

const amount = z.object({ amount: decimalString, currency: z.string() });

/** A transaction as `GET /v2/transactions` lists it. */
export const PaybisTransactionSchema = z.object({
  id: z.string(),
  status: z.string(),
  partnerTransactionId: optionalText,
  request: z.object({ id: z.string() }),
  to: z.object({ address: optionalText }).nullish(),
  hash: optionalText,
  amounts: z.object({ spentOriginal: amount, receivedOriginal: amount }).nullish(),
  createdAt: z.string(),
  /** When the customer's payment was taken; absent or null before (and without) one. */
  paidAt: optionalText,
});
export type PaybisTransaction = z.infer<typeof PaybisTransactionSchema>;

/** `GET /v2/transactions?from&to&limit[&cursor]`, by creation time, a cursor to the next page. */
export const PaybisTransactionListSchema = z.object({
  data: z.array(PaybisTransactionSchema),
  meta: z.object({ nextCursor: optionalText }),
});
export type PaybisTransactionList = z.infer<typeof PaybisTransactionListSchema>;

/** The event of the transaction status webhook, the only one the broker acts on. */
export const PAYBIS_TRANSACTION_EVENT = 'TRANSACTION_STATUS_CHANGED';

/** The transaction status webhook (`TRANSACTION_STATUS_CHANGED`); the fields the broker reads. */
export const PaybisWebhookSchema = z.object({
  event: z.literal(PAYBIS_TRANSACTION_EVENT),
  data: z.object({
    requestId: z.string().min(1),
    partnerTransactionId: optionalText,
    transaction: z.object({ invoice: optionalText, status: z.string(), flow: z.string() }),
    amountFrom: amount.nullish(),
    amountTo: amount.nullish(),
    payout: z
      .object({
        transactionHash: optionalText,
        transaction_hash: optionalText,
        destinationWalletAddress: optionalText,
      })
      .nullish(),
  }),
});
export type PaybisWebhook = z.infer<typeof PaybisWebhookSchema>;

/** Error bodies: a code and a message. */
export const PaybisErrorSchema = z.object({ code: z.union([z.string(), z.number()]).optional(), message: z.string().optional() });
