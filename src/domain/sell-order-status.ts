/**
 * The sell (off-ramp) order's status set and its transition table (docs/decisions.md, "Off-ramp").
 * Pure: imported by workflow code, so no I/O and no Node built-ins.
 */
export const SELL_ORDER_STATUSES = [
  'created',
  'waiting_for_deposit',
  'deposit_received',
  'processing',
  'complete',
  'failed',
  'expired',
  'refunded',
] as const;

export type SellOrderStatus = (typeof SELL_ORDER_STATUSES)[number];

/**
 * Allowed moves; everything not listed is refused, so a late, duplicated or reordered report never
 * moves an order back. A deposit may be reported late, so a step may be skipped; `failed` may still
 * become `refunded` (the crypto returned to the refund address); `expired` (no deposit in the
 * provider's window) may be revived by a deposit that arrives late, or end `refunded` when the
 * provider returns it. Any status after the deposit may end `refunded`: the customer's crypto went back.
 */
const TRANSITIONS: Readonly<Record<SellOrderStatus, readonly SellOrderStatus[]>> = {
  created: ['waiting_for_deposit', 'deposit_received', 'processing', 'complete', 'failed', 'expired', 'refunded'],
  waiting_for_deposit: ['deposit_received', 'processing', 'complete', 'failed', 'expired', 'refunded'],
  deposit_received: ['processing', 'complete', 'failed', 'refunded'],
  processing: ['complete', 'failed', 'refunded'],
  complete: [],
  failed: ['refunded'],
  expired: ['deposit_received', 'processing', 'complete', 'refunded'],
  refunded: [],
};

export function isSellOrderStatus(value: unknown): value is SellOrderStatus {
  return typeof value === 'string' && (SELL_ORDER_STATUSES as readonly string[]).includes(value);
}

export function canSellTransition(from: SellOrderStatus, to: SellOrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function allowedNextSellStatuses(from: SellOrderStatus): readonly SellOrderStatus[] {
  return TRANSITIONS[from];
}

/** No transition leads out of these. */
export function isSellTerminal(status: SellOrderStatus): boolean {
  return TRANSITIONS[status].length === 0;
}

/** Final for the integrator, though a refund (after `failed` or `expired`) or a late deposit may still come. */
export function isSellSettled(status: SellOrderStatus): boolean {
  return status === 'complete' || status === 'failed' || status === 'expired' || status === 'refunded';
}

/** Before the customer's crypto has reached the provider: the order expires at the end of its deposit window. */
export const AWAITING_DEPOSIT: readonly SellOrderStatus[] = ['created', 'waiting_for_deposit'];
