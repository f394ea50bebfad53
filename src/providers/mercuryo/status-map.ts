import type { OrderStatus } from '../../domain/order-status';

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
  // Off-ramp legs: the broker opens the widget with type=buy only; mapped so a stray callback is harmless.
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

const FAILURE_REASONS: Readonly<Record<string, string>> = {
  'payment:order_failed': 'payment_declined',
  'payment:cancelled': 'cancelled_by_provider',
  'withdraw:failed': 'crypto_delivery_failed',
  'deposit:failed': 'deposit_failed',
};

/**
 * The broker status of one operation's status; undefined for a type or status Mercuryo does not
 * document, which the adapter never turns into a broker status (docs/providers/mercuryo.md).
 */
export function mapOperationStatus(type: string, status: string): { status: OrderStatus; failureReason?: string } | undefined {
  const leg = legOf(type);
  if (leg === undefined) return undefined;
  const table: Readonly<Record<string, OrderStatus>> = MERCURYO_STATUS_MAP[leg];
  if (!Object.hasOwn(table, status)) return undefined;
  const mapped = table[status]!;
  return mapped === 'failed'
    ? { status: mapped, failureReason: FAILURE_REASONS[`${leg}:${status}`] ?? 'failed_at_provider' }
    : { status: mapped };
}
