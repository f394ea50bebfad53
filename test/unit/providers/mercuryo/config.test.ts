import { ConfigError } from '../../../../src/config/env';
import {
  MERCURYO_LIVE_API_URL,
  MERCURYO_LIVE_WIDGET_URL,
  MERCURYO_SIMULATOR_CREDENTIALS,
  mercuryoConfig,
  MercuryoEnvSchema,
} from '../../../../src/providers/mercuryo/config';

const CREDENTIALS = {
  MERCURYO_WIDGET_ID: 'widget-1',
  MERCURYO_SECRET: 'secret-1',
  MERCURYO_SDK_PARTNER_TOKEN: 'token-1',
  MERCURYO_SIGN_KEY: 'sign-1',
};
const options = { brokerPublicUrl: 'https://broker.example/' };

describe('mercuryoConfig', () => {
  test('live on Mercuryo hosts when every credential is set', () => {
    expect(mercuryoConfig(MercuryoEnvSchema.parse(CREDENTIALS), { ...options, simulatorUrl: 'http://127.0.0.1:4010' })).toEqual({
      mode: 'live',
      config: {
        widgetId: 'widget-1',
        secret: 'secret-1',
        sdkPartnerToken: 'token-1',
        signKey: 'sign-1',
        apiUrl: MERCURYO_LIVE_API_URL,
        widgetUrl: MERCURYO_LIVE_WIDGET_URL,
        brokerPublicUrl: 'https://broker.example',
      },
    });
  });

  test("live on the override URLs (Mercuryo's sandbox)", () => {
    const env = MercuryoEnvSchema.parse({
      ...CREDENTIALS,
      MERCURYO_API_URL: 'https://sandbox-api.mrcr.io/v1.6/',
      MERCURYO_WIDGET_URL: 'https://sandbox-exchange.mrcr.io',
    });
    const mode = mercuryoConfig(env, options);
    expect(mode.mode === 'live' && [mode.config.apiUrl, mode.config.widgetUrl]).toEqual([
      'https://sandbox-api.mrcr.io/v1.6',
      'https://sandbox-exchange.mrcr.io',
    ]);
  });

  test('simulator with its fixed credentials when nothing is set and a simulator URL is given', () => {
    expect(mercuryoConfig({}, { ...options, simulatorUrl: 'http://127.0.0.1:4010/' })).toEqual({
      mode: 'simulator',
      config: {
        ...MERCURYO_SIMULATOR_CREDENTIALS,
        apiUrl: 'http://127.0.0.1:4010/mercuryo/v1.6',
        widgetUrl: 'http://127.0.0.1:4010/mercuryo',
        brokerPublicUrl: 'https://broker.example',
      },
    });
  });

  test('disabled with neither credentials nor simulator', () => {
    expect(mercuryoConfig({}, options)).toMatchObject({ mode: 'disabled' });
  });

  test('partial credentials are a ConfigError naming the missing variables', () => {
    const partial = { MERCURYO_WIDGET_ID: 'widget-1', MERCURYO_SECRET: 'secret-1' };
    expect(() => mercuryoConfig(partial, options)).toThrow(ConfigError);
    try {
      mercuryoConfig(partial, options);
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toMatch(/MERCURYO_SDK_PARTNER_TOKEN[\s\S]*MERCURYO_SIGN_KEY/);
      expect((err as ConfigError).problems.join('\n')).not.toMatch(/MERCURYO_WIDGET_ID/);
    }
  });

  test('a malformed override URL is refused by the schema', () => {
    expect(MercuryoEnvSchema.safeParse({ MERCURYO_API_URL: 'not a url' }).success).toBe(false);
  });
});
