import { MAX_OFFERS_PER_KEY, matches, MemoryOfferStore, offerKey, type OfferTerms } from '../../../src/offers/store';
import { query, T0, terms, TTL_MS } from '../../helpers/offer-terms';

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

  test('ignores the ip (an order takes it from the offer, but it is no term of the offer)', () => {
    expect(offerKey(terms({ ip: '203.0.113.7' }))).toBe(offerKey(terms()));
    expect(matches(terms({ ip: '203.0.113.7' }), { country: 'DE', paymentMethod: 'card' }, T0)).toBe(true);
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
  // The store's behaviour (matching, amounts, expiry, mismatches) is one suite run against both the
  // memory and the Redis store: test/integration/redis-offer-store.test.ts. What follows is memory-only.

  test('stores are independent', async () => {
    const a = storeAt().store;
    const b = storeAt().store;
    await a.remember(terms());
    await expect(b.findLive(query())).resolves.toBeUndefined();
  });

  test('is bounded by the offers it holds over all keys, not only by keys: least recently used keys go first', async () => {
    const clock = { now: T0 };
    const store = new MemoryOfferStore(() => clock.now, { maxKeys: 100, maxOffers: 40 });
    // Two keys of 16 offers each (the most a key holds): 32 offers.
    for (const user of ['a', 'b']) {
      for (let i = 0; i < MAX_OFFERS_PER_KEY + 4; i++) await store.remember(terms({ externalUserId: user, amountExpectedTo: `0.00${i}` }));
    }
    expect(store.held).toEqual({ keys: 2, offers: 2 * MAX_OFFERS_PER_KEY });
    await expect(store.findLive(query({ externalUserId: 'a' }))).resolves.toBeDefined();
    // Eight single-offer keys more would make 40; a ninth goes over and drops the least recently used key ("b": "a" was just read).
    for (let i = 0; i < 9; i++) await store.remember(terms({ externalUserId: `u${i}` }));
    expect(store.held.offers).toBeLessThanOrEqual(40);
    expect(store.held.keys).toBe(10);
    await expect(store.findLive(query({ externalUserId: 'b' }))).resolves.toBeUndefined();
    await expect(store.findLive(query({ externalUserId: 'a' }))).resolves.toBeDefined();
    await expect(store.findLive(query({ externalUserId: 'u8' }))).resolves.toBeDefined();
  });

  test('is bounded by keys too', async () => {
    const store = new MemoryOfferStore(() => T0, { maxKeys: 3 });
    for (const user of ['a', 'b', 'c', 'd']) await store.remember(terms({ externalUserId: user }));
    expect(store.held).toEqual({ keys: 3, offers: 3 });
    await expect(store.findLive(query({ externalUserId: 'a' }))).resolves.toBeUndefined();
    await expect(store.findLive(query({ externalUserId: 'd' }))).resolves.toBeDefined();
  });

  test('gives back the terms as remembered, in the same order, one offer or several under a key, whatever the expiry is written as', async () => {
    const { store } = storeAt();
    const canonical = new Date(T0 + 60_000).toISOString();
    const written = canonical.replace('.000Z', 'Z');
    for (const expiresAt of [canonical, written]) {
      const remembered = terms({ externalUserId: expiresAt, expiresAt, ip: '203.0.113.7', state: 'CA', country: 'US' });
      await store.remember(remembered);
      const found = await store.findLive(query({ externalUserId: expiresAt, country: 'US', state: 'CA' }));
      expect(found).toEqual(remembered);
      expect(Object.keys(found!)).toEqual(Object.keys(remembered).sort((a, b) => keyOrder(a) - keyOrder(b)));
      await store.remember({ ...remembered, amountExpectedTo: '2' });
      await expect(store.findLive(query({ externalUserId: expiresAt, country: 'US', state: 'CA' }))).resolves.toEqual(remembered);
    }
    expect(store.held.offers).toBe(4);
  });

  test('uses Date.now by default', async () => {
    const store = new MemoryOfferStore();
    await store.remember(terms({ expiresAt: new Date(Date.now() + 60_000).toISOString() }));
    await expect(store.findLive(query())).resolves.toBeDefined();
    await store.remember(terms({ externalUserId: 'late', expiresAt: new Date(Date.now() - 1).toISOString() }));
    await expect(store.findLive(query({ externalUserId: 'late' }))).resolves.toBeUndefined();
  });
});

/** The order findLive writes the terms in. */
function keyOrder(key: string): number {
  return [
    'integratorId',
    'externalUserId',
    'providerCode',
    'fromCurrency',
    'toCurrency',
    'expiresAt',
    'amountFrom',
    'amountExpectedTo',
    'country',
    'state',
    'paymentMethod',
    'ip',
    'paymentMethods',
  ].indexOf(key);
}
