/** Fixtures of the offers service's unit tests: one pair, one card method, a fake provider. */
import { currencyDictionary } from '../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../src/domain/currency';
import type { CallSignal } from '../../src/providers/kit/call-signal';
import type { CataloguePaymentMethod, ProviderAdapter, ProviderCatalogue, ProviderQuote, QuoteRequest } from '../../src/providers/types';

export const USD = currencyDictionary.fiat(1) as FiatCurrency;
export const BTC = currencyDictionary.crypto(13) as CryptoCurrency;
export const NOW = Date.parse('2026-11-21T12:00:00Z');

export const CARD: CataloguePaymentMethod = {
  code: 'card',
  name: 'Card',
  icon_url: null,
  fee: '3.99%',
  limits: { [USD.id]: { min: '20', max: '5000' } },
};

/** The card method's quote of 100 USD. */
export const goodQuote: ProviderQuote = {
  fiatAmount: '100.00',
  cryptoAmount: '0.001',
  processingFee: '3.50',
  networkFee: '1.00',
  paymentMethod: 'card',
  expiresAt: new Date(NOW + 60_000),
};

/** 100 USD of BTC in GB, for user u1 of integrator i1. */
export const offersQuery = { integratorId: 'i1', externalUserId: 'u1', fiat: USD, crypto: BTC, amountFrom: '100', country: 'GB' };

/** A provider of `catalogue` whose quotes `quote` answers; it does nothing else. */
export function fakeProvider(
  code: string,
  catalogue: ProviderCatalogue,
  quote: (request: QuoteRequest, signal?: CallSignal) => Promise<ProviderQuote>,
): ProviderAdapter {
  return {
    info: { code, name: code, description: code, icon_url: 'https://example.org/i.svg' },
    getCatalogue: () => Promise.resolve(catalogue),
    getQuote: quote,
    createOrder: () => Promise.reject(new Error('unused')),
    getOrder: () => Promise.reject(new Error('unused')),
    parseWebhook: () => Promise.reject(new Error('unused')),
  };
}
