import { COINBASE_SIMULATOR_CREDENTIALS, coinbaseConfig } from '../../../../src/providers/coinbase/config';
import { ConfigError } from '../../../../src/providers/kit/config';

const ENDPOINTS = { simulatorUrl: 'http://127.0.0.1:4010', brokerPublicUrl: 'http://localhost:3000/' };
const LIVE = {
  COINBASE_API_KEY_ID: 'organizations/o/apiKeys/k',
  COINBASE_API_KEY_SECRET: COINBASE_SIMULATOR_CREDENTIALS.apiKeySecret,
  COINBASE_WEBHOOK_SECRET: 'whsec_live',
};

describe('Coinbase configuration', () => {
  test('no credentials: the simulator under /coinbase with the development credentials', () => {
    expect(coinbaseConfig({}, ENDPOINTS)).toEqual({
      mode: 'simulator',
      config: {
        ...COINBASE_SIMULATOR_CREDENTIALS,
        apiUrl: 'http://127.0.0.1:4010/coinbase',
        payUrl: 'http://127.0.0.1:4010/coinbase/pay',
        brokerPublicUrl: 'http://localhost:3000',
      },
    });
  });

  test('SIMULATOR_SECRET derives the key and the webhook secret; the key name stays', () => {
    const resolved = coinbaseConfig({}, { ...ENDPOINTS, simulatorSecret: 'private' });
    if (resolved.mode !== 'simulator') throw new Error(resolved.mode);
    expect(resolved.config.apiKeyId).toBe(COINBASE_SIMULATOR_CREDENTIALS.apiKeyId);
    expect(resolved.config.apiKeySecret).not.toBe(COINBASE_SIMULATOR_CREDENTIALS.apiKeySecret);
    expect(resolved.config.webhookSecret).not.toBe(COINBASE_SIMULATOR_CREDENTIALS.webhookSecret);
  });

  test("all credentials: live, on Coinbase's hosts unless overridden", () => {
    expect(coinbaseConfig(LIVE, ENDPOINTS)).toMatchObject({
      mode: 'live',
      config: { apiUrl: 'https://api.developer.coinbase.com', payUrl: 'https://pay.coinbase.com' },
    });
  });

  test('some credentials, a secret that is no CDP key, or a URL without credentials are configuration errors', () => {
    expect(() => coinbaseConfig({ COINBASE_API_KEY_ID: 'k' }, ENDPOINTS)).toThrow(/COINBASE_API_KEY_SECRET: required/);
    expect(() => coinbaseConfig({ ...LIVE, COINBASE_API_KEY_SECRET: 'secret' }, ENDPOINTS)).toThrow(ConfigError);
    expect(() => coinbaseConfig({ COINBASE_API_URL: 'https://x.example' }, ENDPOINTS)).toThrow(/without Coinbase credentials/);
  });

  test('no credentials and no simulator: disabled', () => {
    expect(coinbaseConfig({}, { brokerPublicUrl: 'https://broker.example' })).toMatchObject({ mode: 'disabled' });
  });
});
