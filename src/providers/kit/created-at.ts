/**
 * `providerOrderCreatedAt` of a snapshot: when the provider made its order, as ISO 8601 UTC. The
 * order workflow refuses a report about a provider order made before the order itself (a body or a
 * lookup kept from an older purchase). A value that is not a time is left out, so the report goes
 * on without that one check rather than stopping the order: spread the result into the snapshot.
 */
export type CreatedAt = { providerOrderCreatedAt?: string };

const NONE: CreatedAt = {};

/** Times outside these years are not a provider order's creation (and Date handles them all). */
const EARLIEST = Date.UTC(2000, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function fromMillis(ms: number): CreatedAt {
  if (!Number.isFinite(ms) || ms < EARLIEST || ms >= LATEST) return NONE;
  return { providerOrderCreatedAt: new Date(Math.floor(ms)).toISOString() };
}

/**
 * A date-time text with its zone (`2024-05-01T10:20:30.123Z`, `…+02:00`). Without a zone the time
 * is read as UTC only when `zoneless` says the provider documents UTC; otherwise it is left out, as
 * no one knows which clock it follows (a guess hours off would refuse genuine reports).
 */
export function createdAtText(value: string | null | undefined, zoneless: 'utc' | 'unknown' = 'unknown'): CreatedAt {
  if (typeof value !== 'string') return NONE;
  const match = DATE_TIME.exec(value.trim());
  if (!match) return NONE;
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone] = match;
  if (zone === undefined && zoneless === 'unknown') return NONE;
  const fields = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const [y, mo, d, h, mi, s] = fields;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return NONE;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, Number(fraction.padEnd(3, '0').slice(0, 3)));
  // A day past the month's end (31 April) rolls over in Date.UTC: not a date.
  if (new Date(utc).getUTCDate() !== d) return NONE;
  const offset = offsetMinutes(zone);
  return offset === undefined ? NONE : fromMillis(utc - offset * 60_000);
}

/** The zone's offset from UTC in minutes; undefined for one no clock uses (beyond ±14:00, or minutes past 59). */
function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const [hours, minutes] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || '0')];
  if (hours > 14 || minutes > 59 || (hours === 14 && minutes > 0)) return undefined;
  return sign * (hours * 60 + minutes);
}

/** Unix time in milliseconds, as a number or a text of digits. */
export function createdAtMillis(value: number | string | null | undefined): CreatedAt {
  const ms = typeof value === 'string' ? (/^\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN) : value;
  return typeof ms === 'number' ? fromMillis(ms) : NONE;
}

/** Unix time in seconds, as a number or a text of digits. */
export function createdAtSeconds(value: number | string | null | undefined): CreatedAt {
  const s = typeof value === 'string' ? (/^\d{1,13}(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : NaN) : value;
  return typeof s === 'number' ? fromMillis(s * 1000) : NONE;
}
