/**
 * Cross-check against Onramp.money's own web SDK (@onramp.money/onramp-web-sdk, a devDependency).
 * Version 2 of the SDK does not build the widget URL itself: it sends its configuration as query
 * parameters to Onramp.money's `sdk-apis/generate-url` and opens the URL that answers. What can be
 * checked is that the adapter's widget URL carries the same parameters, under the same names and
 * with the same values, as the SDK sends for the same purchase, and that the SDK's own sanity check
 * accepts them.
 */
import { buildWidgetUrl, type WidgetParams } from '../../../../src/providers/onramp_money/widget';

// The SDK's CommonJS build (dist/lib), its URL building and sanity check.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require('@onramp.money/onramp-web-sdk/dist/lib/onramp-web-sdk.js') as {
  OnrampWebSDK: { prototype: { _getURL(this: unknown): Promise<string> } };
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const helper = require('@onramp.money/onramp-web-sdk/dist/lib/helper.js') as { sanityCheck(config: Record<string, unknown>): boolean };

const PARAMS: WidgetParams = {
  appId: '424242',
  walletAddress: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  coinCode: 'usdt',
  network: 'matic20',
  fiatAmount: '150',
  fiatType: 1,
  paymentMethod: '1',
  merchantRecognitionId: '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90',
  redirectUrl: 'https://wallet.example/return',
};

/** The SDK configuration of the same purchase, with the types its sanity check asks for (numbers for amounts and method). */
const SDK_CONFIG = {
  appId: 424242,
  walletAddress: PARAMS.walletAddress,
  coinCode: PARAMS.coinCode,
  network: PARAMS.network,
  fiatAmount: 150,
  fiatType: 1,
  paymentMethod: 1,
  merchantRecognitionId: PARAMS.merchantRecognitionId,
  redirectUrl: PARAMS.redirectUrl,
};

/** The query the SDK sends to its URL generator for `config`, captured with browser globals stubbed. */
async function sdkQuery(config: Record<string, unknown>): Promise<URLSearchParams> {
  const requested: string[] = [];
  const globals = globalThis as Record<string, unknown>;
  const saved = { window: globals.window, fetch: globals.fetch };
  globals.window = { location: { origin: 'https://wallet.example' }, innerHeight: 800 };
  globals.fetch = (url: string) => {
    requested.push(url);
    return Promise.resolve({ ok: true, json: () => Promise.resolve({ data: { url: 'https://onramp.money/main/buy/?generated=1' } }) });
  };
  try {
    await sdk.OnrampWebSDK.prototype._getURL.call({ config, _appURL: 'https://onramp.money/main' });
  } finally {
    globals.window = saved.window;
    globals.fetch = saved.fetch;
  }
  expect(requested).toHaveLength(1);
  const url = new URL(requested[0]!);
  expect(`${url.origin}${url.pathname}`).toBe('https://api.onramp.money/sdk-apis/generate-url');
  return url.searchParams;
}

describe('Onramp.money widget URL', () => {
  test('carries the purchase under the hosted mode names, with our order id as merchantRecognitionId', () => {
    const url = new URL(buildWidgetUrl('https://onramp.money/main/buy', PARAMS));
    expect(`${url.origin}${url.pathname}`).toBe('https://onramp.money/main/buy/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appId: '424242',
      walletAddress: PARAMS.walletAddress,
      coinCode: 'usdt',
      network: 'matic20',
      fiatAmount: '150',
      fiatType: '1',
      paymentMethod: '1',
      merchantRecognitionId: PARAMS.merchantRecognitionId,
      redirectUrl: 'https://wallet.example/return',
    });
  });

  test('leaves redirectUrl out when there is none', () => {
    const url = new URL(buildWidgetUrl('https://onramp.money/main/buy', { ...PARAMS, redirectUrl: undefined }));
    expect(url.searchParams.has('redirectUrl')).toBe(false);
  });

  test("the SDK's sanity check accepts the purchase's configuration", () => {
    expect(helper.sanityCheck(SDK_CONFIG)).toBe(true);
  });

  test('carries the same parameters, names and values as the SDK sends to its URL generator', async () => {
    const sent = await sdkQuery(SDK_CONFIG);
    // What the SDK adds about itself (its page, frame mode, origin, height, flow) is not the purchase.
    const SDK_OWN = ['appURL', 'flowType', 'mode', 'origin', 'clientHeight'];
    expect(sent.get('flowType')).toBe('1');
    const purchase = Object.fromEntries([...sent].filter(([key]) => !SDK_OWN.includes(key)));
    const ours = Object.fromEntries(new URL(buildWidgetUrl('https://onramp.money/main/buy', PARAMS)).searchParams);
    expect(ours).toEqual(purchase);
  });
});
