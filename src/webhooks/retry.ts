/** Pauses between delivery attempts (docs/decisions.md, "Webhooks to integrators"): about three days in all. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];

/** A receiver's Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * The pause after failed attempt `attempt` (1-based): the receiver's Retry-After when it sent one,
 * otherwise the schedule's entry; undefined once the schedule is used up.
 */
export function nextRetryDelayMs(attempt: number, schedule: readonly number[], retryAfterMs?: number): number | undefined {
  const scheduled = schedule[attempt - 1];
  if (scheduled === undefined) return undefined;
  if (retryAfterMs === undefined) return scheduled;
  return Math.min(Math.max(retryAfterMs, 0), MAX_RETRY_AFTER_MS);
}

/** Retry-After as delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its weekday and month; anything else (e.g. "-5") is unreadable.
  const at = /[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(at - now, 0);
}
