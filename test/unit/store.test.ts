import { matches, MemoryOfferStore, offerKey, type OfferStore, type OfferTerms } from '../../src/offers/store';

type Query = Parameters<OfferStore['findLive']>[0];

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const TTL_MS = 120_000;

function terms(overrides: Partial<OfferTerms> = {}): OfferTerms {
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

function query(overrides: Partial<Query> = {}): Query {
  return {
    integratorId: 'acme',
    externalUserId: 'user-1',
    providerCode: 'sandbox',
    fromCurrency: 1,
    toCurrency: 13,
    amountFrom: '100',
    country: 'DE',
    paymentMethod: 'card',
    ...overrides,
  };
}

/** A store whose clock the test moves. */
function storeAt(start = T0): { store: MemoryOfferStore; clock: { now: number } } {
  const clock = { now: start };
  return { store: new MemoryOfferStore(() => clock.now), clock };
}

describe('offerKey', () => {
  test.each(['100', '100.0', '100.00', '100.000000'])('"%s" is the same key as "100"', (amount) => {
    expect(offerKey(terms({ amountFrom: amount }))).toBe(offerKey(terms({ amountFrom: '100' })));
  });

  test('different amounts are different keys', () => {
    expect(offerKey(terms({ amountFrom: '100.01' }))).not.toBe(offerKey(terms({ amountFrom: '100' })));
    expect(offerKey(terms({ amountFrom: '10' }))).not.toBe(offerKey(terms({ amountFrom: '100' })));
  });

  test.each<[string, Partial<OfferTerms>]>([
    ['integrator', { integratorId: 'other' }],
    ['user', { externalUserId: 'user-2' }],
    ['provider', { providerCode: 'other' }],
    ['from currency', { fromCurrency: 2 }],
    ['to currency', { toCurrency: 14 }],
  ])('a different %s gives a different key', (_label, change) => {
    expect(offerKey(terms(change))).not.toBe(offerKey(terms()));
  });

  test('fields cannot run into each other', () => {
    expect(offerKey(terms({ integratorId: 'a', externalUserId: 'bc' }))).not.toBe(
      offerKey(terms({ integratorId: 'ab', externalUserId: 'c' })),
    );
  });

  test('ignores country, state, payment methods and expiry (they are matched, not keyed)', () => {
    expect(offerKey(terms({ country: 'FR', state: 'CA', paymentMethod: 'sepa', expiresAt: '2000-01-01T00:00:00Z' }))).toBe(
      offerKey(terms()),
    );
  });
});

describe('matches', () => {
  const now = T0;

  test('a live offer matches the same country and a covered payment method', () => {
    expect(matches(terms(), { country: 'DE', paymentMethod: 'card' }, now)).toBe(true);
  });

  test('expiry is exclusive: live one millisecond before, dead at the instant', () => {
    const offer = terms();
    expect(matches(offer, { country: 'DE', paymentMethod: 'card' }, T0 + TTL_MS - 1)).toBe(true);
    expect(matches(offer, { country: 'DE', paymentMethod: 'card' }, T0 + TTL_MS)).toBe(false);
    expect(matches(offer, { country: 'DE', paymentMethod: 'card' }, T0 + TTL_MS + 1)).toBe(false);
  });

  test('a different country does not match', () => {
    expect(matches(terms(), { country: 'FR', paymentMethod: 'card' }, now)).toBe(false);
  });

  test('an offer given for a state matches only that state', () => {
    const offer = terms({ country: 'US', state: 'CA' });
    expect(matches(offer, { country: 'US', state: 'CA', paymentMethod: 'card' }, now)).toBe(true);
    expect(matches(offer, { country: 'US', state: 'NY', paymentMethod: 'card' }, now)).toBe(false);
    expect(matches(offer, { country: 'US', paymentMethod: 'card' }, now)).toBe(false);
  });

  test('an offer given without a state is not restricted by state', () => {
    expect(matches(terms({ country: 'US' }), { country: 'US', state: 'CA', paymentMethod: 'card' }, now)).toBe(true);
  });

  test('an offer restricted to a payment method matches only that method', () => {
    const offer = terms({ paymentMethod: 'sepa', paymentMethods: ['sepa'] });
    expect(matches(offer, { country: 'DE', paymentMethod: 'sepa' }, now)).toBe(true);
    expect(matches(offer, { country: 'DE', paymentMethod: 'card' }, now)).toBe(false);
  });

  test('the restriction wins even when the method list names others', () => {
    const offer = terms({ paymentMethod: 'sepa', paymentMethods: ['sepa', 'card'] });
    expect(matches(offer, { country: 'DE', paymentMethod: 'card' }, now)).toBe(false);
  });

  test('an unrestricted offer matches any method it covers, and no other', () => {
    const offer = terms({ paymentMethods: ['card', 'sepa'] });
    expect(matches(offer, { country: 'DE', paymentMethod: 'card' }, now)).toBe(true);
    expect(matches(offer, { country: 'DE', paymentMethod: 'sepa' }, now)).toBe(true);
    expect(matches(offer, { country: 'DE', paymentMethod: 'bank_transfer' }, now)).toBe(false);
  });
});

describe('MemoryOfferStore', () => {
  test('remember then findLive returns the offer', async () => {
    const { store } = storeAt();
    const offer = terms();
    await store.remember(offer);
    await expect(store.findLive(query())).resolves.toEqual(offer);
  });

  test('nothing remembered, nothing found', async () => {
    const { store } = storeAt();
    await expect(store.findLive(query())).resolves.toBeUndefined();
  });

  test.each<[string, string]>([
    ['100', '100.00'],
    ['100.00', '100'],
    ['100.5', '100.50'],
  ])('an offer for "%s" is found for an order of "%s"', async (offered, ordered) => {
    const { store } = storeAt();
    await store.remember(terms({ amountFrom: offered }));
    await expect(store.findLive(query({ amountFrom: ordered }))).resolves.toMatchObject({ amountFrom: offered });
  });

  test('an order for another amount is not matched', async () => {
    const { store } = storeAt();
    await store.remember(terms());
    await expect(store.findLive(query({ amountFrom: '100.01' }))).resolves.toBeUndefined();
  });

  test('an offer stops being found once it expires', async () => {
    const { store, clock } = storeAt();
    await store.remember(terms());
    clock.now = T0 + TTL_MS - 1;
    await expect(store.findLive(query())).resolves.toBeDefined();
    clock.now = T0 + TTL_MS;
    await expect(store.findLive(query())).resolves.toBeUndefined();
    clock.now = T0 + 10 * TTL_MS;
    await expect(store.findLive(query())).resolves.toBeUndefined();
  });

  test('an offer that was already expired when remembered is never found', async () => {
    const { store } = storeAt();
    await store.remember(terms({ expiresAt: new Date(T0 - 1).toISOString() }));
    await expect(store.findLive(query())).resolves.toBeUndefined();
  });

  test.each<[string, Partial<Query>]>([
    ['country', { country: 'FR' }],
    ['state', { state: 'NY' }],
    ['missing state', { state: undefined }],
    ['payment method', { paymentMethod: 'sepa' }],
    ['user', { externalUserId: 'user-2' }],
    ['integrator', { integratorId: 'other' }],
    ['provider', { providerCode: 'other' }],
    ['from currency', { fromCurrency: 2 }],
    ['to currency', { toCurrency: 14 }],
  ])('a mismatched %s is not found', async (_label, change) => {
    const { store } = storeAt();
    await store.remember(terms({ country: 'US', state: 'CA' }));
    await expect(store.findLive(query({ country: 'US', state: 'CA' }))).resolves.toBeDefined();
    await expect(store.findLive(query({ country: 'US', state: 'CA', ...change }))).resolves.toBeUndefined();
  });

  test('an offer restricted to a payment method only matches that method', async () => {
    const { store } = storeAt();
    await store.remember(terms({ paymentMethod: 'sepa', paymentMethods: ['sepa'] }));
    await expect(store.findLive(query({ paymentMethod: 'sepa' }))).resolves.toMatchObject({ paymentMethod: 'sepa' });
    await expect(store.findLive(query({ paymentMethod: 'card' }))).resolves.toBeUndefined();
  });

  test('several offers under one key are all kept; the matching one is returned', async () => {
    const { store } = storeAt();
    const card = terms({ paymentMethod: 'card', paymentMethods: ['card'], amountExpectedTo: '1' });
    const sepa = terms({ paymentMethod: 'sepa', paymentMethods: ['sepa'], amountExpectedTo: '2' });
    const inFrance = terms({ country: 'FR', amountExpectedTo: '3' });
    await store.remember(card);
    await store.remember(sepa);
    await store.remember(inFrance);
    await expect(store.findLive(query({ paymentMethod: 'card' }))).resolves.toEqual(card);
    await expect(store.findLive(query({ paymentMethod: 'sepa' }))).resolves.toEqual(sepa);
    await expect(store.findLive(query({ country: 'FR' }))).resolves.toEqual(inFrance);
  });

  test('a newer offer under the same key does not hide an older live one, and expired ones drop out', async () => {
    const { store, clock } = storeAt();
    const first = terms({ amountExpectedTo: '1', expiresAt: new Date(T0 + 60_000).toISOString() });
    await store.remember(first);
    clock.now = T0 + 30_000;
    const second = terms({ country: 'FR', amountExpectedTo: '2', expiresAt: new Date(T0 + 150_000).toISOString() });
    await store.remember(second);
    await expect(store.findLive(query())).resolves.toEqual(first);
    clock.now = T0 + 60_000;
    await expect(store.findLive(query())).resolves.toBeUndefined();
    await expect(store.findLive(query({ country: 'FR' }))).resolves.toEqual(second);
  });

  test('stores are independent', async () => {
    const a = storeAt().store;
    const b = storeAt().store;
    await a.remember(terms());
    await expect(b.findLive(query())).resolves.toBeUndefined();
  });

  test('uses Date.now by default', async () => {
    const store = new MemoryOfferStore();
    await store.remember(terms({ expiresAt: new Date(Date.now() + 60_000).toISOString() }));
    await expect(store.findLive(query())).resolves.toBeDefined();
    await store.remember(terms({ externalUserId: 'late', expiresAt: new Date(Date.now() - 1).toISOString() }));
    await expect(store.findLive(query({ externalUserId: 'late' }))).resolves.toBeUndefined();
  });
});
