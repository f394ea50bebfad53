import { createHash } from 'node:crypto';
import { buildWidgetUrl, widgetSignature, type WidgetParams } from '../../../../src/providers/mercuryo/widget';

describe('Mercuryo widget signature (v2)', () => {
  test("reproduces the example of Mercuryo's security guide", () => {
    const signature = widgetSignature('0x742d35Cc6634C0532925a3b844Bc454e4438f44e', 'your_secret_key_123', '192.168.1.1', 'tx_123456');
    // The guide prints the result truncated: "v2:83a6473f7b0aade8cd794c38f435d8db..."
    expect(signature.startsWith('v2:83a6473f7b0aade8cd794c38f435d8db')).toBe(true);
    expect(signature).toMatch(/^v2:[0-9a-f]{128}$/);
  });
});

describe('buildWidgetUrl', () => {
  const params: WidgetParams = {
    widgetId: '67710925-8b40-4767-846e-3b88db69f04d',
    secret: 'widget-secret',
    address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    ip: '203.0.113.7',
    merchantTransactionId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
    currency: 'BTC',
    network: 'BITCOIN',
    fiatCurrency: 'EUR',
    fiatAmount: '150',
    paymentMethod: 'card',
    returnUrl: 'https://wallet.example/done?x=1',
  };

  test('is the widget host with the documented parameters and a signature computed from them', () => {
    const url = new URL(buildWidgetUrl('https://exchange.mercuryo.io', params));
    expect(`${url.origin}${url.pathname}`).toBe('https://exchange.mercuryo.io/');
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      widget_id: params.widgetId,
      type: 'buy',
      currency: 'BTC',
      network: 'BITCOIN',
      address: params.address,
      fiat_currency: 'EUR',
      fiat_amount: '150',
      merchant_transaction_id: params.merchantTransactionId,
      payment_method: 'card',
      return_url: 'https://wallet.example/done?x=1',
    });
    const expected = createHash('sha512')
      .update('bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' + 'widget-secret' + '203.0.113.7' + '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90')
      .digest('hex');
    expect(q.signature).toBe(`v2:${expected}`);
  });

  test('is the same URL for the same order, and differs with the IP', () => {
    expect(buildWidgetUrl('https://exchange.mercuryo.io', params)).toBe(buildWidgetUrl('https://exchange.mercuryo.io', { ...params }));
    const other = new URL(buildWidgetUrl('https://exchange.mercuryo.io', { ...params, ip: '198.51.100.1' }));
    expect(other.searchParams.get('signature')).not.toBe(
      new URL(buildWidgetUrl('https://exchange.mercuryo.io', params)).searchParams.get('signature'),
    );
  });

  test('omits return_url when there is none', () => {
    const url = new URL(buildWidgetUrl('https://sandbox-exchange.mrcr.io', { ...params, returnUrl: undefined }));
    expect(url.searchParams.has('return_url')).toBe(false);
    expect(url.host).toBe('sandbox-exchange.mrcr.io');
  });
});
