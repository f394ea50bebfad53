/**
 * A provider order id as logs and failure messages show it. Ramp's carries the purchase's view token
 * (a capability: it reads the purchase) after a colon (src/providers/ramp/transformers.ts), so what
 * follows the first colon is left out; other providers' ids have no colon and are shown whole.
 */
export function loggableProviderOrderId(providerOrderId: string | undefined): string | undefined {
  if (providerOrderId === undefined) return undefined;
  const colon = providerOrderId.indexOf(':');
  return colon < 0 ? providerOrderId : `${providerOrderId.slice(0, colon)}:[redacted]`;
}
