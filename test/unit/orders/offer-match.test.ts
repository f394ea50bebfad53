import { currencyDictionary } from '../../../src/domain/currencies';
import { MemoryOfferStore } from '../../../src/offers/store';
import { NoLiveOfferError } from '../../../src/orders/errors';
import { matchingOffer, offerQueryFor } from '../../../src/orders/offer-match';
import { acceptedOrderRequest, CreateOrderBodySchema, type CreateOrderBody } from '../../../src/orders/request';
import { query, T0, terms, TTL_MS } from '../../helpers/offer-terms';
import { FULL_ORDER_BODY } from '../../helpers/order-bodies';

const { state_code: _state, ip: _ip, user_agent: _agent, extras: _extras, ...BASE } = FULL_ORDER_BODY;
const BODY = { ...BASE, country_code: 'DE', external_user_id: 'user-1', external_order_id: 'order-1' };

/** The request that matches `terms()` (offer-terms.ts): acme's user-1, sandbox, USD 100 to BTC, DE, by card. */
const accepted = (overrides: Partial<CreateOrderBody> = {}, state?: string) =>
  acceptedOrderRequest('acme', {
    body: CreateOrderBodySchema.parse({ ...BODY, ...overrides }),
    fiat: currencyDictionary.get(1)!,
    crypto: currencyDictionary.get(13)!,
    state,
  });

function storeAt(now = T0): { store: MemoryOfferStore; clock: { now: number } } {
  const clock = { now };
  return { store: new MemoryOfferStore(() => clock.now), clock };
}

describe('offerQueryFor', () => {
  test('asks for the terms of the offer the request was made from', () => {
    expect(offerQueryFor(accepted())).toEqual({ ...query({ amountFrom: '100.00' }), state: undefined });
  });

  test('takes the currencies as checked and the amount at the currency precision', () => {
    expect(offerQueryFor(accepted({ from_amount: '100' }))).toMatchObject({ fromCurrency: 1, toCurrency: 13, amountFrom: '100.00' });
  });

  test('takes the state as checked', () => {
    expect(offerQueryFor(accepted({ country_code: 'US', state_code: 'CA' }, 'CA'))).toMatchObject({ country: 'US', state: 'CA' });
  });
});

describe('matchingOffer', () => {
  test('is the live offer the request matches, "100" and "100.00" alike', async () => {
    const { store } = storeAt();
    await store.remember(terms({ ip: '203.0.113.7' }));
    await expect(matchingOffer(store, accepted())).resolves.toMatchObject({ amountExpectedTo: '0.00097992', ip: '203.0.113.7' });
    await expect(matchingOffer(store, accepted({ from_amount: '100' }))).resolves.toMatchObject({ amountExpectedTo: '0.00097992' });
  });

  test('refuses with NoLiveOfferError once the offer has expired', async () => {
    const { store, clock } = storeAt();
    await store.remember(terms());
    clock.now = T0 + TTL_MS;
    await expect(matchingOffer(store, accepted())).rejects.toThrow(NoLiveOfferError);
  });

  test.each<[string, Partial<CreateOrderBody>]>([
    ['another amount', { from_amount: '100.01' }],
    ['another user', { external_user_id: 'user-2' }],
    ['another country', { country_code: 'FR' }],
    ['another payment method', { payment_method: 'sepa' }],
  ])('refuses a request for %s than the offer', async (_label, change) => {
    const { store } = storeAt();
    await store.remember(terms());
    await expect(matchingOffer(store, accepted(change))).rejects.toThrow(NoLiveOfferError);
  });

  test('refuses a request of another integrator', async () => {
    const { store } = storeAt();
    await store.remember(terms({ integratorId: 'globex' }));
    await expect(matchingOffer(store, accepted())).rejects.toThrow(NoLiveOfferError);
  });
});
