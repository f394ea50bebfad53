/** A POST /api/on_ramp/orders body with every field set (sandbox, USD 100 to BTC, by card, in California). */
export const FULL_ORDER_BODY = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100.00',
  wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  payment_method: 'card',
  country_code: 'US',
  external_user_id: 'user-42',
  external_order_id: 'order-2030-0001',
  state_code: 'CA',
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0',
  extras: { campaign: 'spring', nested: { a: 1 } },
};
