import type { RAMP_WEBHOOK_TYPES } from '../../providers/ramp/schemas';

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

/** The documented webhook type that goes with a status: the purchase's last major event. */
export function webhookType(status: SimRampStatus): (typeof RAMP_WEBHOOK_TYPES)[number] {
  return status === 'RELEASED' || status === 'RETURNED' ? status : 'CREATED';
}
