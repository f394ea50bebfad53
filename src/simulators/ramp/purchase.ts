/** The purchase statuses the simulated Ramp moves through (Ramp's own names). */
export type SimRampStatus =
  | 'INITIALIZED'
  | 'PAYMENT_STARTED'
  | 'PAYMENT_IN_PROGRESS'
  | 'PAYMENT_FAILED'
  | 'PAYMENT_EXECUTED'
  | 'RELEASING'
  | 'RELEASED'
  | 'EXPIRED'
  | 'CANCELLED'
  | 'RETURNED';

/** RampPurchase as the simulator keeps and sends it. */
export interface SimPurchase {
  id: string;
  purchaseViewToken: string;
  status: SimRampStatus;
  asset: { address: string | null; symbol: string; chain: string; type: string; name: string; decimals: number };
  receiverAddress: string;
  cryptoAmount: string;
  fiatCurrency: string;
  fiatValue: number;
  assetExchangeRate: number;
  baseRampFee: number;
  networkFee: number;
  appliedFee: number;
  hostFeeCut: number;
  paymentMethodType: string;
  finalTxHash: string | null;
  createdAt: string;
  updatedAt: string;
  endTime: string | null;
}

/** A purchase and where its webhooks go: the webhookStatusUrl of the widget URL that opened it. */
export interface PurchaseRecord {
  purchase: SimPurchase;
  webhookStatusUrl?: string;
}

/** A card purchase from the first payment step to the crypto on its way and confirmed. */
const PAY_PATH: readonly SimRampStatus[] = ['PAYMENT_STARTED', 'PAYMENT_IN_PROGRESS', 'PAYMENT_EXECUTED', 'RELEASING', 'RELEASED'];

/** Where a status stands on PAY_PATH; before it (-1) for a purchase not paid yet or whose payment failed. */
function position(status: SimRampStatus): number | undefined {
  if (status === 'INITIALIZED' || status === 'PAYMENT_FAILED') return -1;
  const index = PAY_PATH.indexOf(status);
  return index === -1 ? undefined : index;
}

/** The PAY_PATH steps from `status` up to `until`, or undefined when there are none. */
function along(status: SimRampStatus, until: SimRampStatus): SimRampStatus[] | undefined {
  const from = position(status);
  if (from === undefined) return undefined;
  const steps = PAY_PATH.slice(from + 1, PAY_PATH.indexOf(until) + 1);
  return steps.length > 0 ? steps : undefined;
}

const among = (status: SimRampStatus, ...statuses: SimRampStatus[]) => statuses.includes(status);

function failedPayment(status: SimRampStatus): SimRampStatus[] | undefined {
  if (status === 'INITIALIZED') return ['PAYMENT_STARTED', 'PAYMENT_FAILED'];
  return among(status, 'PAYMENT_STARTED', 'PAYMENT_IN_PROGRESS') ? ['PAYMENT_FAILED'] : undefined;
}

/**
 * What each checkout action plays, from a given status. `hold` stops at PAYMENT_IN_PROGRESS (the
 * payment is in, Ramp's checks are not done): Ramp documents no separate review status. `decline`
 * fails one payment, which the customer may retry with `pay`; `fail` also cancels the purchase.
 */
const PLANS: Readonly<Record<string, (status: SimRampStatus) => SimRampStatus[] | undefined>> = {
  pay: (status) => along(status, 'RELEASED'),
  hold: (status) => along(status, 'PAYMENT_IN_PROGRESS'),
  decline: failedPayment,
  fail: (status) => (status === 'PAYMENT_FAILED' ? ['CANCELLED'] : failedPayment(status)?.concat('CANCELLED')),
  expire: (status) => (among(status, 'INITIALIZED', 'PAYMENT_STARTED', 'PAYMENT_FAILED') ? ['EXPIRED'] : undefined),
  refund: (status) => (among(status, 'PAYMENT_IN_PROGRESS', 'PAYMENT_EXECUTED') ? ['RETURNED'] : undefined),
};

export const RAMP_ACTIONS = Object.keys(PLANS);

export function planFor(action: string, status: SimRampStatus): SimRampStatus[] | undefined {
  return Object.hasOwn(PLANS, action) ? PLANS[action]!(status) : undefined;
}

export function allowedActions(status: SimRampStatus): string[] {
  return RAMP_ACTIONS.filter((action) => planFor(action, status) !== undefined);
}

export const isFinal = (status: SimRampStatus) => among(status, 'RELEASED', 'EXPIRED', 'CANCELLED', 'RETURNED');

/** The webhook types Ramp documents: a purchase's major events. */
export type RampWebhookType = 'CREATED' | 'RELEASED' | 'RETURNED';

/** The webhook type that goes with a status: the purchase's last major event. */
export function webhookType(status: SimRampStatus): RampWebhookType {
  return status === 'RELEASED' || status === 'RETURNED' ? status : 'CREATED';
}
