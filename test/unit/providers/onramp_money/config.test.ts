import { ConfigError } from '../../../../src/config/env';
import {
  ONRAMP_MONEY_LIVE_API_URL,
  ONRAMP_MONEY_LIVE_WIDGET_URL,
  ONRAMP_MONEY_SIMULATOR_CREDENTIALS,
  onrampMoneyConfig,
  onrampMoneySimulatorCredentials,
  OnrampMoneyEnvSchema,
} from '../../../../src/providers/onramp_money/config';

const CREDENTIALS = { ONRAMP_MONEY_APP_ID: '77', ONRAMP_MONEY_API_KEY: 'key-1', ONRAMP_MONEY_API_SECRET: 'secret-1' };
const options = { brokerPublicUrl: 'https://broker.example/' };

describe('onrampMoneyConfig', () => {
  test('live on Onramp.money hosts when every credential is set', () => {
    expect(onrampMoneyConfig(OnrampMoneyEnvSchema.parse(CREDENTIALS), { ...options, simulatorUrl: 'http://127.0.0.1:4010' })).toEqual({
      mode: 'live',
      config: {
        appId: '77',
        apiKey: 'key-1',
        apiSecret: 'secret-1',
        apiUrl: ONRAMP_MONEY_LIVE_API_URL,
        widgetUrl: ONRAMP_MONEY_LIVE_WIDGET_URL,
        brokerPublicUrl: 'https://broker.example',
      },
    });
  });

  test("live on the override URLs (the SDK's sandbox page)", () => {
    const env = OnrampMoneyEnvSchema.parse({ ...CREDENTIALS, ONRAMP_MONEY_WIDGET_URL: 'https://test.onramp.money/onramp/main/buy/' });
    const mode = onrampMoneyConfig(env, options);
    expect(mode.mode === 'live' && mode.config.widgetUrl).toBe('https://test.onramp.money/onramp/main/buy');
  });

  test('simulator with its fixed credentials when nothing is set', () => {
    expect(onrampMoneyConfig({}, { ...options, simulatorUrl: 'http://127.0.0.1:4010/' })).toEqual({
      mode: 'simulator',
      config: {
        ...ONRAMP_MONEY_SIMULATOR_CREDENTIALS,
        apiUrl: 'http://127.0.0.1:4010/onramp_money',
        widgetUrl: 'http://127.0.0.1:4010/onramp_money/main/buy',
        brokerPublicUrl: 'https://broker.example',
      },
    });
  });

  test('simulator credentials derived from SIMULATOR_SECRET, the app id kept', () => {
    const derived = onrampMoneySimulatorCredentials('a-private-secret');
    expect(derived.appId).toBe(ONRAMP_MONEY_SIMULATOR_CREDENTIALS.appId);
    expect(derived.apiKey).not.toBe(ONRAMP_MONEY_SIMULATOR_CREDENTIALS.apiKey);
    expect(derived.apiSecret).not.toBe(ONRAMP_MONEY_SIMULATOR_CREDENTIALS.apiSecret);
    expect(derived.apiSecret).toBe(onrampMoneySimulatorCredentials('a-private-secret').apiSecret);
  });

  test('disabled without credentials and without a simulator', () => {
    expect(onrampMoneyConfig({}, options).mode).toBe('disabled');
  });

  test('some credentials set is an error naming the missing variables', () => {
    expect(() => onrampMoneyConfig({ ONRAMP_MONEY_API_KEY: 'key-1' }, options)).toThrow(ConfigError);
    try {
      onrampMoneyConfig({ ONRAMP_MONEY_API_KEY: 'key-1' }, options);
    } catch (err) {
      expect((err as Error).message).toContain('ONRAMP_MONEY_APP_ID');
      expect((err as Error).message).toContain('ONRAMP_MONEY_API_SECRET');
      expect((err as Error).message).not.toContain('ONRAMP_MONEY_API_KEY:');
    }
  });
});
