import { currencyDictionary } from '../../../src/domain/currencies';
import { acceptedOrderRequest, CreateOrderBodySchema, orderIdFor, type CreateOrderBody } from '../../../src/orders/request';
import { orderRequestFor, orderWorkflowInput } from '../../../src/orders/workflow-input';
import { DEFAULT_ORDER_TIMINGS } from '../../../src/temporal/order-contract';
import { terms } from '../../helpers/offer-terms';

const BODY = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100',
  wallet_address: ' bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq ',
  payment_method: 'card',
  country_code: 'US',
  state_code: 'CA',
  external_user_id: 'user-1',
  external_order_id: 'order-1',
};

const accepted = (overrides: Partial<CreateOrderBody> = {}) =>
  acceptedOrderRequest('acme', {
    body: CreateOrderBodySchema.parse({ ...BODY, ...overrides }),
    fiat: currencyDictionary.get(1)!,
    crypto: currencyDictionary.get(13)!,
    state: 'CA',
  });

describe('orderRequestFor', () => {
  test("is the request with currency IDs, the amount at the currency precision and the offer's crypto amount", () => {
    expect(orderRequestFor(accepted(), terms({ amountExpectedTo: '0.00097992' }))).toEqual({
      from_currency: 1,
      from_amount: '100.00',
      to_currency: 13,
      to_amount: '0.00097992',
      wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      payment_method: 'card',
      country_code: 'US',
      state_code: 'CA',
      external_user_id: 'user-1',
      external_order_id: 'order-1',
      ip: undefined,
      user_agent: undefined,
      extras: {},
    });
  });

  test("takes the offer's IP address when the order names none", () => {
    expect(orderRequestFor(accepted(), terms({ ip: '203.0.113.7' })).ip).toBe('203.0.113.7');
  });

  test("keeps the order's own IP address over the offer's", () => {
    expect(orderRequestFor(accepted({ ip: '198.51.100.9' }), terms({ ip: '203.0.113.7' })).ip).toBe('198.51.100.9');
  });

  test('passes user_agent and extras through', () => {
    const request = orderRequestFor(accepted({ user_agent: 'Mozilla/5.0', extras: { campaign: 'spring' } }), terms());
    expect(request).toMatchObject({ user_agent: 'Mozilla/5.0', extras: { campaign: 'spring' } });
  });
});

describe('orderWorkflowInput', () => {
  test('names the order, its integrator, provider, request digest and timings', () => {
    const offer = terms();
    expect(orderWorkflowInput(accepted(), offer, 'hash-1', DEFAULT_ORDER_TIMINGS)).toEqual({
      orderId: orderIdFor('acme', 'order-1'),
      integratorId: 'acme',
      providerCode: 'sandbox',
      requestHash: 'hash-1',
      timings: DEFAULT_ORDER_TIMINGS,
      request: orderRequestFor(accepted(), offer),
    });
  });
});
