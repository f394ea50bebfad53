import type { SellOrderStatus } from '../../domain/sell-order-status';
import { FAILED_AT_PROVIDER, UnknownProviderStatusError } from './status-map';

/** What one provider status means for a sell order. */
export interface SellStatusMapping {
  status: SellOrderStatus;
  /** Only with `failed`. */
  failureReason?: string;
}

/**
 * The mapper of one provider's sell status table, as statusMapper is for buys: a listed status maps
 * to its sell status (with the failure reason listed for it, if failed), any other throws
 * UnknownProviderStatusError (a lookup fails and is tried again; a webhook is refused).
 */
export function sellStatusMapper<S extends string>(
  provider: string,
  table: Readonly<Record<S, SellOrderStatus>>,
  failureReasons?: Readonly<Partial<Record<S, string>>>,
): (status: string) => SellStatusMapping {
  return (status) => {
    // Own keys only: `toString` is no status.
    if (!Object.hasOwn(table, status)) throw new UnknownProviderStatusError(provider, status);
    const mapped = table[status as S];
    if (mapped !== 'failed') return { status: mapped };
    const listed = failureReasons && Object.hasOwn(failureReasons, status) ? failureReasons[status as S] : undefined;
    return { status: mapped, failureReason: listed ?? FAILED_AT_PROVIDER };
  };
}
