/** The simulated Transak's orders: their shape, status sequences and the checkout actions. */

export type TransakSimStatus =
  | 'AWAITING_PAYMENT_FROM_USER'
  | 'PAYMENT_DONE_MARKED_BY_USER'
  | 'PROCESSING'
  | 'PENDING_DELIVERY_FROM_TRANSAK'
  | 'ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK'
  | 'COMPLETED'
  | 'CANCELLED'
  | 'FAILED'
  | 'REFUNDED'
  | 'EXPIRED';

/** The webhook `eventID` Transak sends with each status (features/webhooks). */
export const EVENT_IDS: Readonly<Record<TransakSimStatus, string>> = {
  AWAITING_PAYMENT_FROM_USER: 'ORDER_CREATED',
  PAYMENT_DONE_MARKED_BY_USER: 'ORDER_PAYMENT_VERIFYING',
  PROCESSING: 'ORDER_PROCESSING',
  PENDING_DELIVERY_FROM_TRANSAK: 'ORDER_PROCESSING',
  ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK: 'ORDER_PROCESSING',
  COMPLETED: 'ORDER_COMPLETED',
  CANCELLED: 'ORDER_FAILED',
  FAILED: 'ORDER_FAILED',
  EXPIRED: 'ORDER_FAILED',
  REFUNDED: 'ORDER_REFUNDED',
};

/** An order as Transak's partner API returns it (the fields the simulator keeps). */
export interface TransakSimOrder {
  id: string;
  partnerOrderId?: string;
  partnerCustomerId?: string;
  walletAddress: string;
  createdAt: string;
  updatedAt: string;
  status: TransakSimStatus;
  fiatCurrency: string;
  cryptoCurrency: string;
  isBuyOrSell: 'BUY' | 'SELL';
  /** BUY: what the customer pays, fees included. SELL: what is paid out, fees taken off. */
  fiatAmount: number;
  amountPaid: number;
  paymentOptionId: string;
  network: string;
  quoteId: string;
  conversionPrice: number;
  cryptoAmount: number;
  totalFeeInFiat: number;
  statusHistories: { status: TransakSimStatus; createdAt: string; partnerEventId: string }[];
  transactionHash?: string;
  transactionLink?: string;
  completedAt?: string;
  /** SELL: Transak's deposit address for the order (the Partner API's sell order). */
  cryptoPaymentData?: { paymentAddress: string };
  /** SELL: no deposit after this, the order expires (1 hour after creation in Transak's example). */
  autoExpiresAt?: string;
  /** SELL: `false` in Transak's example; where a tag would go is not documented. */
  addressAdditionalData?: false;
  /** SELL: the fiat paid out, once paid. */
  fiatAmountPaid?: number;
  paymentMarkedAt?: string;
}

export type CheckoutAction = 'pay' | 'hold' | 'fail' | 'expire' | 'cancel' | 'refund';

/** What the customer may do in each status; `pay` walks on from wherever the order stands. */
export const ACTIONS: Readonly<Record<TransakSimStatus, readonly CheckoutAction[]>> = {
  AWAITING_PAYMENT_FROM_USER: ['pay', 'hold', 'fail', 'expire', 'cancel'],
  PAYMENT_DONE_MARKED_BY_USER: ['hold', 'fail', 'expire'],
  PROCESSING: ['hold', 'fail', 'refund'],
  PENDING_DELIVERY_FROM_TRANSAK: ['hold', 'fail', 'refund'],
  ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK: ['pay', 'fail', 'refund'],
  COMPLETED: [],
  CANCELLED: [],
  FAILED: ['refund'],
  EXPIRED: ['pay'],
  REFUNDED: [],
};

const PAY_STEPS: Partial<Record<TransakSimStatus, readonly TransakSimStatus[]>> = {
  AWAITING_PAYMENT_FROM_USER: ['PAYMENT_DONE_MARKED_BY_USER', 'PROCESSING', 'PENDING_DELIVERY_FROM_TRANSAK', 'COMPLETED'],
  ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK: ['PENDING_DELIVERY_FROM_TRANSAK', 'COMPLETED'],
  EXPIRED: ['PROCESSING', 'PENDING_DELIVERY_FROM_TRANSAK', 'COMPLETED'],
};

/** The statuses an allowed action plays, in order; the first at once, the rest one step apart. */
export function stepsOf(action: CheckoutAction, from: TransakSimStatus): readonly TransakSimStatus[] {
  switch (action) {
    case 'pay':
      return PAY_STEPS[from] ?? [];
    case 'hold':
      return ['ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK'];
    case 'fail':
      return ['FAILED'];
    case 'expire':
      return ['EXPIRED'];
    case 'cancel':
      return ['CANCELLED'];
    case 'refund':
      return ['REFUNDED'];
  }
}

export const isSimStatus = (value: unknown): value is TransakSimStatus => typeof value === 'string' && Object.hasOwn(ACTIONS, value);

export const isCheckoutAction = (value: unknown): value is CheckoutAction =>
  typeof value === 'string' && ['pay', 'hold', 'fail', 'expire', 'cancel', 'refund'].includes(value);

/** What the customer may do in a sell order's widget. */
export type SellCheckoutAction = 'pay' | 'fail' | 'expire' | 'refund' | 'wrong_amount';

/**
 * The actions of a sell order in each status: `pay` sends the crypto and Transak pays out;
 * `wrong_amount` sends another amount, which Transak reconciles and pays out for; `refund` sends it,
 * but the payout is held and the crypto returned; `fail` and `expire` end it without a deposit.
 */
export const SELL_ACTIONS: Readonly<Record<TransakSimStatus, readonly SellCheckoutAction[]>> = {
  AWAITING_PAYMENT_FROM_USER: ['pay', 'wrong_amount', 'fail', 'expire', 'refund'],
  PAYMENT_DONE_MARKED_BY_USER: ['fail', 'expire'],
  PROCESSING: ['fail', 'refund'],
  PENDING_DELIVERY_FROM_TRANSAK: ['fail', 'refund'],
  ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK: ['pay', 'fail', 'refund'],
  COMPLETED: [],
  CANCELLED: [],
  FAILED: ['refund'],
  EXPIRED: ['pay'],
  REFUNDED: [],
};

/** The statuses of a paid sell, as the Partner API's sell order lists them: received, then paid out. */
const SELL_PAY_STEPS: readonly TransakSimStatus[] = ['PENDING_DELIVERY_FROM_TRANSAK', 'COMPLETED'];

/** The statuses an allowed sell action plays, in order; the first at once, the rest one step apart. */
export function sellStepsOf(action: SellCheckoutAction, from: TransakSimStatus): readonly TransakSimStatus[] {
  switch (action) {
    case 'pay':
      return from === 'PENDING_DELIVERY_FROM_TRANSAK' ? ['COMPLETED'] : SELL_PAY_STEPS;
    case 'wrong_amount':
      return SELL_PAY_STEPS;
    case 'fail':
      return ['FAILED'];
    case 'expire':
      return ['EXPIRED'];
    case 'refund':
      return from === 'AWAITING_PAYMENT_FROM_USER' ? ['ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK', 'REFUNDED'] : ['REFUNDED'];
  }
}

export const isSellCheckoutAction = (value: unknown): value is SellCheckoutAction =>
  typeof value === 'string' && ['pay', 'fail', 'expire', 'refund', 'wrong_amount'].includes(value);
