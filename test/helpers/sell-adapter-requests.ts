import { randomUUID } from 'node:crypto';
import type { CreateSellOrderRequest } from '../../src/providers/sell-types';
import { cryptoOf, fiatOf } from './currencies';

/**
 * A sell adapter's order request: 0.1 ETH (Ethereum) for EUR by SEPA in DE, a fresh order id each
 * time. `market` gives a provider's own defaults; each call may override any field.
 */
export function sellAdapterRequests(
  market: Partial<CreateSellOrderRequest> = {},
): (overrides?: Partial<CreateSellOrderRequest>) => CreateSellOrderRequest {
  return (overrides = {}) => ({
    orderId: randomUUID(),
    crypto: cryptoOf('ETH', 'ethereum'),
    fiat: fiatOf('EUR'),
    cryptoAmount: '0.1',
    refundWalletAddress: '0xD902d7eBF7bc5eCa9EEA22a6Ee9F1A30EBeBEFeE',
    payoutMethod: 'sepa',
    country: 'DE',
    externalUserId: 'user-1',
    extras: {},
    ...market,
    ...overrides,
  });
}

/** What an outsider puts in the integrator's extras to try to set the deposit: never to reach the provider. */
export const HOSTILE_DEPOSIT_EXTRAS = {
  depositWalletAddress: '0x0000000000000000000000000000000000000bad',
  deposit: { address: 'x' },
} as const;
