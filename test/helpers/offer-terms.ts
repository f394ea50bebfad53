import type { OfferStore, OfferTerms } from '../../src/offers/store';

export type OfferQuery = Parameters<OfferStore['findLive']>[0];

// In the future, so that Redis (which expires keys by its own clock) keeps what the tests remember.
export const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
export const TTL_MS = 120_000;

/** An offer as the offers service remembers it. */
export function terms(overrides: Partial<OfferTerms> = {}): OfferTerms {
  return {
    integratorId: 'acme',
    externalUserId: 'user-1',
    providerCode: 'sandbox',
    fromCurrency: 1,
    toCurrency: 13,
    amountFrom: '100',
    country: 'DE',
    paymentMethods: ['card'],
    amountExpectedTo: '0.00097992',
    expiresAt: new Date(T0 + TTL_MS).toISOString(),
    ...overrides,
  };
}

/** The order that would match `terms()`, paid by card. */
export function query(overrides: Partial<OfferQuery> = {}): OfferQuery {
  const { paymentMethods: _methods, amountExpectedTo: _amount, expiresAt: _expires, ...base } = terms();
  return { ...base, paymentMethod: 'card', ...overrides };
}
