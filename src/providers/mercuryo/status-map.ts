import type { OrderStatus } from '../../domain/order-status';
import { lookupStatus, UnknownProviderStatusError, type StatusMapping } from '../kit/status-map';

/**
 * One Mercuryo purchase is several linked operations, each with its own status: the payment leg
 * (card `buy`, Apple/Google Pay `mobile_pay`, invoice payments such as Revolut Pay `buy_acquirer`)
 * and, once paid, the `withdraw` leg that sends the crypto. `sell` and `deposit` are the off-ramp legs.
 */
export type MercuryoLeg = 'payment' | 'withdraw' | 'deposit' | 'sell';

/** Type names as `GET /sdk-partner/transactions` keys them; callbacks send `buy` for every payment leg. */
const LEG_BY_TYPE: Readonly<Record<string, MercuryoLeg>> = {
  buy: 'payment',
  mobile_pay: 'payment',
  buy_acquirer: 'payment',
  withdraw: 'withdraw',
  deposit: 'deposit',
  sell: 'sell',
};

export function legOf(type: string): MercuryoLeg | undefined {
  return LEG_BY_TYPE[type];
}

/** Every documented status of each leg, onto the broker's status set. */
export const MERCURYO_STATUS_MAP = {
  payment: {
    new: 'created',
    pending: 'pending',
    // Authorised, money held on the card while the customer passes KYC.
    order_scheduled: 'hold',
    // Documented as intermediate: card verification failed; Mercuryo cancels or retries.
    descriptor_failed: 'hold',
    // Documented as intermediate: the exchange request failed after payment; not final.
    failed_exchange: 'hold',
    // The fiat leg is done; the crypto is delivered by the withdraw leg.
    paid: 'processing',
    // Not in Mercuryo's tables; seen on invoice payments (buy_acquirer) in public client code.
    completed: 'processing',
    order_failed: 'failed',
    // Final; funds returned if charged. After a paid leg the lookup reports `refunded` (see transformers).
    cancelled: 'failed',
  },
  withdraw: {
    new: 'processing',
    pending: 'processing',
    // Listed for withdraw in Mercuryo's older status table: crypto held until KYC passes.
    order_scheduled: 'hold',
    failed: 'failed',
    completed: 'complete',
  },
  // Off-ramp legs, as one buy-side operation would read them; the buy parser ignores their callbacks and the
  // buy lookup skips them: sell orders are the sell adapter's (sell-status-map.ts maps them for sell orders).
  deposit: {
    new: 'pending',
    pending: 'pending',
    completed: 'processing',
    succeeded: 'processing',
    failed: 'failed',
  },
  sell: {
    new: 'created',
    pending: 'processing',
    succeeded: 'complete',
    // The crypto goes back to the customer's refund address.
    failed: 'refunded',
  },
} as const satisfies Record<MercuryoLeg, Record<string, OrderStatus>>;

const FAILURE_REASONS: Readonly<Partial<Record<MercuryoLeg, Readonly<Record<string, string>>>>> = {
  payment: { order_failed: 'payment_declined', cancelled: 'cancelled_by_provider' },
  withdraw: { failed: 'crypto_delivery_failed' },
  deposit: { failed: 'deposit_failed' },
};

/**
 * The broker status of one operation's status; undefined for a type or status Mercuryo does not
 * document: in a lookup of a purchase's legs, a leg in such a status says nothing and another leg may.
 */
export function lookupMercuryoStatus(type: string, status: string): StatusMapping | undefined {
  const leg = legOf(type);
  if (leg === undefined) return undefined;
  const table: Readonly<Record<string, OrderStatus>> = MERCURYO_STATUS_MAP[leg];
  return lookupStatus(table, status, FAILURE_REASONS[leg]);
}

/**
 * The broker status of one operation's status; UnknownProviderStatusError, naming it as
 * `<type>:<status>`, for a type or status Mercuryo does not document.
 */
export function mapMercuryoStatus(type: string, status: string): StatusMapping {
  const mapped = lookupMercuryoStatus(type, status);
  if (!mapped) throw new UnknownProviderStatusError('Mercuryo', `${type}:${status}`);
  return mapped;
}
