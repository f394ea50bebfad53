import { createHmac } from 'node:crypto';
import { signedWidgetUrl } from '../../../../src/providers/moonpay/widget';

/** MoonPay's documented algorithm, written out independently: base64 HMAC-SHA256 of `new URL(url).search`. */
function documentedSignature(secretKey: string, unsignedUrl: string): string {
  return createHmac('sha256', secretKey).update(new URL(unsignedUrl).search).digest('base64');
}

describe('signedWidgetUrl', () => {
  test("matches the documentation's example URL and signature", () => {
    const original =
      'https://buy-sandbox.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';
    const signed = signedWidgetUrl('https://buy-sandbox.moonpay.com', 'sk_test_key', {
      apiKey: 'pk_test_key',
      currencyCode: 'eth',
      walletAddress: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae',
    });
    expect(signed).toBe(`${original}&signature=${encodeURIComponent(documentedSignature('sk_test_key', original))}`);
  });

  test('signs the URL-encoded values, and the signature is the last parameter', () => {
    const signed = signedWidgetUrl('https://buy.moonpay.com', 'sk_live_secret', {
      apiKey: 'pk_live_key',
      currencyCode: 'usdc_sol',
      walletAddress: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      redirectURL: 'https://wallet.example/done?order=1&x=a b',
    });
    const [unsigned, signature] = signed.split('&signature=');
    expect(unsigned).toContain('redirectURL=https%3A%2F%2Fwallet.example%2Fdone%3Forder%3D1%26x%3Da+b');
    expect(decodeURIComponent(signature!)).toBe(documentedSignature('sk_live_secret', unsigned!));
    expect(new URL(signed).searchParams.get('signature')).toBe(documentedSignature('sk_live_secret', unsigned!));
  });

  test('depends on the secret key and on every parameter', () => {
    const params = { apiKey: 'pk_test_key', currencyCode: 'btc', baseCurrencyAmount: '100' };
    const base = signedWidgetUrl('https://buy-sandbox.moonpay.com', 'sk_test_a', params);
    expect(signedWidgetUrl('https://buy-sandbox.moonpay.com', 'sk_test_b', params)).not.toBe(base);
    expect(
      signedWidgetUrl('https://buy-sandbox.moonpay.com', 'sk_test_a', { ...params, baseCurrencyAmount: '101' }).split('&signature=')[1],
    ).not.toBe(base.split('&signature=')[1]);
  });
});
