import { currencyDictionary } from '../../../../src/domain/currencies';
import { SandboxOrderSchema } from '../../../../src/providers/sandbox/schemas';
import { fromOrder } from '../../../../src/providers/sandbox/transformers';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

/** `GET /v1/orders?partner_order_id=` as the sandbox provider answers it. */
const answer = {
  id: 'sbx_order_42',
  partner_order_id: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
  status: 'AWAITING_PAYMENT',
  fiat_currency: 'EUR',
  fiat_amount: '250.00',
  crypto_currency: 'USDT',
  network: 'tron',
  crypto_amount: '243.51',
  wallet_address: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
  payment_method: 'sepa',
  country: 'DE',
  checkout_url: 'http://127.0.0.1:4010/sandbox/checkout/sbx_order_42',
  created_at: '2030-01-01T12:00:00.000Z',
  updated_at: '2030-01-01T12:00:05.000Z',
};

describe('sandbox status answers', () => {
  test('the order is named by its own partner_order_id and reports its terms', () => {
    expect(fromOrder(SandboxOrderSchema.parse(answer), currencyDictionary)).toMatchObject({
      orderId: answer.partner_order_id,
      providerOrderId: 'sbx_order_42',
      status: 'pending',
      reported: {
        walletAddress: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
        cryptoCurrency: crypto('USDT', 'tron').id,
        fiatCurrency: fiat('EUR').id,
        fiatAmount: '250.00',
      },
      providerOrderCreatedAt: '2030-01-01T12:00:00.000Z',
    });
  });

  test('a created_at that is not a time is left out; the order is still read', () => {
    for (const created_at of ['noon', 1893499200000, null]) {
      const snapshot = fromOrder(SandboxOrderSchema.parse({ ...answer, created_at }), currencyDictionary);
      expect(snapshot).not.toHaveProperty('providerOrderCreatedAt');
      expect(snapshot.status).toBe('pending');
    }
  });

  test('an asset on a network the dictionary lacks, or a fiat it lacks, is null', () => {
    const unknown = SandboxOrderSchema.parse({ ...answer, network: 'moonbeam', fiat_currency: 'XAF' });
    expect(fromOrder(unknown, currencyDictionary).reported).toMatchObject({ cryptoCurrency: null, fiatCurrency: null });
  });
});
