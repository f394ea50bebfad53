// No zod here: the order workflow imports this, and each new workflow evaluates every module it imports.

/**
 * Keys of `extras` that the broker writes from the provider's reports. An integrator's order
 * request may not set them (validation_error): they would pass for the provider's word.
 */
export const BROKER_EXTRAS_KEYS = ['provider_order_id', 'provider_status', 'transaction_hash'] as const;

/** `extras` without the broker's own keys. */
export function integratorExtras(extras: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(extras).filter(([key]) => !(BROKER_EXTRAS_KEYS as readonly string[]).includes(key)));
}
