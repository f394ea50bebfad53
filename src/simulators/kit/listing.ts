/** What the simulated providers' transaction lists share: their date windows and their pages. */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** A window of creation times a list was asked for: `from` and `to` both included, as the providers document theirs. */
export interface ListWindow {
  fromMs: number;
  toMs: number;
  holds(createdAt: string): boolean;
}

/**
 * The window of a list's `start` and `end` parameters: ISO 8601 instants, or dates (a date as an
 * end is its whole day); a missing one leaves that side open. Undefined when either is not a date,
 * or the window ends before it starts.
 */
export function listWindow(start: unknown, end: unknown): ListWindow | undefined {
  const fromMs = start === undefined ? -Infinity : instant(start, false);
  const toMs = end === undefined ? Infinity : instant(end, true);
  if (fromMs === undefined || toMs === undefined || toMs < fromMs) return undefined;
  return {
    fromMs,
    toMs,
    holds: (createdAt) => {
      const at = Date.parse(createdAt);
      return at >= fromMs && at <= toMs;
    },
  };
}

function instant(value: unknown, endOfDay: boolean): number | undefined {
  if (typeof value !== 'string' || value.length > 40) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return undefined;
  return DATE_ONLY.test(value) && endOfDay ? ms + DAY_MS - 1 : ms;
}
