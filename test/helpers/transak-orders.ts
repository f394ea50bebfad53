import type { CreateProviderOrderRequest } from '../../src/providers/types';
import { cryptoOf, fiatOf } from './currencies';

let orderSeq = 0;

/** An order the Transak simulator takes: 150 EUR of ETH by SEPA in Germany, each with a new order id. */
export const transakOrderRequest = (overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest => ({
  orderId: `00000000-0000-4000-8000-${String(++orderSeq).padStart(12, '0')}`,
  fiat: fiatOf('EUR'),
  crypto: cryptoOf('ETH', 'ethereum'),
  fiatAmount: '150',
  walletAddress: '0xD902d7eBF7bc5eCa9EEA22a6Ee9F1A30EBeBEFeE',
  paymentMethod: 'sepa',
  country: 'DE',
  externalUserId: 'user-1',
  extras: {},
  ...overrides,
});
