import type { OrderStatus } from '../../domain/order-status';
import { statusMapper } from '../kit/status-map';

/**
 * Every documented onramp status code (onramp.gitbook.io, Order status codes; the same list in
 * Merchant Transaction History, Order status and Webhook updates), onto the broker's status set.
 * Codes are numbers; the table is keyed by their decimal text.
 */
export const ONRAMP_MONEY_STATUS_MAP = {
  // "amount mismatch": the customer sent another amount than required.
  '-4': 'failed',
  // "bank and kyc name mismatch".
  '-3': 'failed',
  // "transaction abandoned": the customer left without paying.
  '-2': 'expired',
  // "transaction timed out": not paid in the allowed time.
  '-1': 'expired',
  // "transaction created": the customer is to transfer the fiat.
  '0': 'pending',
  // "referenceId claimed": the customer entered the payment's reference; the deposit is not secured yet.
  '1': 'pending',
  // "deposit secured".
  '2': 'processing',
  // "crypto purchased" (3 and 13), "order placement initiated", "purchasing crypto", "withdrawal initiated".
  '3': 'processing',
  '11': 'processing',
  '12': 'processing',
  '13': 'processing',
  '14': 'processing',
  // "withdrawal complete" (4 and 15; where webhooks are not enabled the order stays here), "webhook sent" (5 and 16).
  '4': 'complete',
  '15': 'complete',
  '5': 'complete',
  '16': 'complete',
} as const satisfies Record<string, OrderStatus>;

export type OnrampMoneyStatus = keyof typeof ONRAMP_MONEY_STATUS_MAP;

const FAILURE_REASONS: Readonly<Partial<Record<OnrampMoneyStatus, string>>> = {
  '-4': 'amount_mismatch',
  '-3': 'kyc_name_mismatch',
};

const mapCode = statusMapper('Onramp.money', ONRAMP_MONEY_STATUS_MAP, FAILURE_REASONS);

/** The broker status of an onramp status code; UnknownProviderStatusError for a code Onramp.money does not document. */
export const mapOnrampMoneyStatus = (code: number) => mapCode(String(code));
