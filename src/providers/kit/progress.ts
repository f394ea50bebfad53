import type { OrderStatus } from '../../domain/order-status';
import { UnknownProviderStatusError } from './status-map';

/**
 * How far one provider transaction got, least first: ended before any money moved; started, not
 * paid; ended after money moved (failed after payment, refunded); paid and under way; complete.
 */
export const PROGRESS = ['ended_unpaid', 'unpaid', 'ended_paid', 'paid', 'complete'] as const;
export type Progress = (typeof PROGRESS)[number];

/** The transaction may still move. */
const LIVE: ReadonlySet<Progress> = new Set<Progress>(['unpaid', 'paid']);

/**
 * The progress of a transaction in broker status `status`. An adapter whose lookup ranks
 * transactions reports one that ended before any money moved as `expired`, never `failed`: a
 * customer may pay on another transaction of the same order, and `failed` cannot move to
 * `complete` (src/domain/order-status.ts), `expired` can. So `failed` ended after money moved.
 */
export function progressOf(status: OrderStatus): Progress {
  switch (status) {
    case 'complete':
      return 'complete';
    case 'processing':
    case 'hold':
      return 'paid';
    case 'refunded':
    case 'failed':
      return 'ended_paid';
    case 'created':
    case 'pending':
      return 'unpaid';
    case 'expired':
      return 'ended_unpaid';
  }
}

/**
 * The transaction that speaks for an order among several of it (`oldestFirst`, in the order they
 * were made): the one that got furthest, so that a transaction anyone can add through a widget URL
 * (started and left, or abandoned) never displaces one that took money. Among as far, the newest,
 * except among live ones when `liveTies` is `oldest` (the first one the customer started).
 *
 * A transaction in a status the provider does not document (`progress` throws
 * UnknownProviderStatusError) is passed over only when another one is paid or complete: an
 * abandoned attempt's odd status then cannot hide a payment, and otherwise the unknown one might be
 * the furthest, so the lookup fails as it would for that transaction alone.
 */
export function furthestTransaction<T>(
  oldestFirst: readonly T[],
  progress: (item: T) => Progress,
  liveTies: 'oldest' | 'newest',
): T | undefined {
  let best: { item: T; rank: number } | undefined;
  let unknown: UnknownProviderStatusError | undefined;
  for (const item of oldestFirst) {
    let reached: Progress;
    try {
      reached = progress(item);
    } catch (err) {
      if (!(err instanceof UnknownProviderStatusError)) throw err;
      unknown ??= err;
      continue;
    }
    const rank = PROGRESS.indexOf(reached);
    const keepOlder = liveTies === 'oldest' && LIVE.has(reached);
    if (best === undefined || rank > best.rank || (rank === best.rank && !keepOlder)) best = { item, rank };
  }
  if (unknown && (best === undefined || best.rank < PROGRESS.indexOf('paid'))) throw unknown;
  return best?.item;
}
