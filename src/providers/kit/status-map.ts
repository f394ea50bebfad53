import type { OrderStatus } from '../../domain/order-status';
import { ProviderUnavailableError } from '../types';

/** What one provider status means for the order. */
export interface StatusMapping {
  status: OrderStatus;
  /** Only with `failed`. */
  failureReason?: string;
}

/** The failure reason of a failed status for which the provider's table lists none. */
export const FAILED_AT_PROVIDER = 'failed_at_provider';

/**
 * A status the provider does not document: it is never mapped to a broker status
 * (docs/decisions.md, Unknown provider statuses). As a ProviderUnavailableError a lookup that meets
 * one fails, so the poll is logged and tried again; a webhook that carries one is refused (webhookReport).
 */
export class UnknownProviderStatusError extends ProviderUnavailableError {
  constructor(
    readonly provider: string,
    readonly providerStatus: string,
  ) {
    super(`a status ${provider} does not document (${providerStatus})`);
    this.name = 'UnknownProviderStatusError';
  }
}

/** The mapping of `status` in `table`, or undefined when the table does not list it (own keys only: `toString` is no status). */
export function lookupStatus<S extends string>(
  table: Readonly<Record<S, OrderStatus>>,
  status: string,
  failureReasons?: Readonly<Partial<Record<S, string>>>,
): StatusMapping | undefined {
  if (!Object.hasOwn(table, status)) return undefined;
  const mapped = table[status as S];
  if (mapped !== 'failed') return { status: mapped };
  const listed = failureReasons && Object.hasOwn(failureReasons, status) ? failureReasons[status as S] : undefined;
  return { status: mapped, failureReason: listed ?? FAILED_AT_PROVIDER };
}

/**
 * The mapper of one provider's status table, exported by its adapter as `map<Provider>Status`: a
 * listed status maps to its broker status (with the failure reason listed for it, if failed), any
 * other throws UnknownProviderStatusError.
 */
export function statusMapper<S extends string>(
  provider: string,
  table: Readonly<Record<S, OrderStatus>>,
  failureReasons?: Readonly<Partial<Record<S, string>>>,
): (status: string) => StatusMapping {
  return (status) => {
    const mapped = lookupStatus(table, status, failureReasons);
    if (!mapped) throw new UnknownProviderStatusError(provider, status);
    return mapped;
  };
}
