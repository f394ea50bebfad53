import { randomBytes, randomUUID } from 'node:crypto';

/** Type names of the payment leg as the transaction lookup keys them. */
export type PaymentType = 'buy' | 'mobile_pay' | 'buy_acquirer';

export interface SimOperation {
  id: string;
  status: string;
  createdAt: Date;
  updatedAt: Date;
}

/** One widget purchase: the payment leg, and the withdraw leg Mercuryo creates once it is paid. */
export interface SimPurchase {
  transactionId: string;
  /** The widget URL's merchant_transaction_id (the broker's order id); null for a purchase made without one (a phantom). */
  merchantTransactionId: string | null;
  /** The widget URL's terms the purchase was opened with: a later open must name the same. */
  widgetTerms: string;
  paymentType: PaymentType;
  /** Mercuryo's payment-method code (lib/currencies). */
  paymentMethod: string;
  /** The wallet, fiat currency and amount as Mercuryo reports them: the widget's, or what was paid instead. */
  address: string;
  currency: string;
  network: string;
  fiatCurrency: string;
  fiatAmount: string;
  cryptoAmount: string;
  userUuid: string;
  payment: SimOperation;
  withdraw?: SimOperation & { hash?: string };
}

/** One step of an action: the legs' new statuses, applied together (one callback each). */
export interface Step {
  payment?: string;
  withdraw?: string;
}

/** Mercuryo's own names: `payment_method` of a callback for each payment type. */
export const CALLBACK_PAYMENT_METHOD: Readonly<Record<PaymentType, string>> = {
  buy: 'card',
  mobile_pay: 'mobile_pay',
  buy_acquirer: 'invoice',
};

export function paymentTypeOf(method: string): PaymentType {
  if (method === 'card') return 'buy';
  if (method === 'apple' || method === 'google') return 'mobile_pay';
  return 'buy_acquirer';
}

/** Mercuryo's operation and transaction ids are 17 hex digits. */
export const mercuryoId = () => randomBytes(9).toString('hex').slice(0, 17);

export function newPurchase(
  fields: Omit<SimPurchase, 'transactionId' | 'userUuid' | 'payment' | 'paymentType'>,
  madeAt = new Date(),
): SimPurchase {
  const now = new Date();
  return {
    ...fields,
    transactionId: mercuryoId(),
    paymentType: paymentTypeOf(fields.paymentMethod),
    userUuid: randomUUID(),
    payment: { id: mercuryoId(), status: 'new', createdAt: madeAt, updatedAt: now },
  };
}

const IN_PROGRESS = ['new', 'pending'];

/** The statuses Mercuryo documents for a payment leg (buy, mobile_pay, buy_acquirer). */
export const PAYMENT_STATUSES: readonly string[] = [
  'new',
  'pending',
  'order_scheduled',
  'descriptor_failed',
  'failed_exchange',
  'paid',
  'order_failed',
  'cancelled',
];

/**
 * The payment statuses a purchase can have a withdraw leg in: Mercuryo opens it once the payment is
 * `paid`, and a paid payment later `cancelled` is a refund. In any other status there is none.
 */
export const STATUSES_WITH_WITHDRAW: readonly string[] = ['paid', 'cancelled'];

/**
 * The customer actions possible in each state and the status steps each plays, in Mercuryo's
 * order: the payment leg (new → pending → paid, or order_scheduled while KYC is pending), then the
 * withdraw leg (new → pending → completed) that Mercuryo opens when the payment is paid.
 */
export function stepsFor(purchase: SimPurchase, action: string): Step[] | undefined {
  const payment = purchase.payment.status;
  const withdraw = purchase.withdraw?.status;
  const delivery: Step[] = [{ payment: 'paid', withdraw: 'new' }, { withdraw: 'pending' }, { withdraw: 'completed' }];
  if (withdraw === undefined) {
    const open = IN_PROGRESS.includes(payment);
    if (!open && payment !== 'order_scheduled') return undefined;
    switch (action) {
      case 'pay':
        return payment === 'new' ? [{ payment: 'pending' }, ...delivery] : delivery;
      case 'hold':
        if (!open) return undefined;
        return payment === 'new' ? [{ payment: 'pending' }, { payment: 'order_scheduled' }] : [{ payment: 'order_scheduled' }];
      case 'fail':
        return [{ payment: 'order_failed' }];
      case 'expire':
        return [{ payment: 'cancelled' }];
      default:
        return undefined;
    }
  }
  if (IN_PROGRESS.includes(withdraw)) {
    if (action === 'fail') return [{ withdraw: 'failed' }];
    if (action === 'refund') return [{ withdraw: 'failed' }, { payment: 'cancelled' }];
    return undefined;
  }
  if (withdraw === 'failed' && payment === 'paid' && action === 'refund') return [{ payment: 'cancelled' }];
  return undefined;
}

export const ACTIONS = ['pay', 'hold', 'fail', 'expire', 'refund'] as const;

export const allowedActions = (purchase: SimPurchase): string[] => ACTIONS.filter((a) => stepsFor(purchase, a) !== undefined);
