import { PROVIDER_TEST_KITS, type ForgedWebhook, type RealProviderCode } from './providers';

export type { ForgedWebhook, RealProviderCode } from './providers';

/**
 * A forged webhook of this provider announcing that the order is complete: in the provider's own
 * format and signature scheme, but signed with a key the broker does not trust (each provider's
 * test kit, test/helpers/providers/<code>.ts, forges it).
 */
export async function forgedWebhook(code: RealProviderCode, orderId: string): Promise<ForgedWebhook> {
  return PROVIDER_TEST_KITS[code].forgeWebhook(orderId);
}
