import { generateKeyPairSync } from 'node:crypto';
import { ConfigError } from '../../../../src/config/env';
import {
  RAMP_DEMO_WEBHOOK_PUBLIC_KEY,
  RAMP_PRODUCTION_WEBHOOK_PUBLIC_KEY,
  RAMP_SIMULATOR_CREDENTIALS,
  RAMP_SIMULATOR_WEBHOOK_URL_SECRET,
  RampEnvSchema,
  rampConfig,
} from '../../../../src/providers/ramp/config';

const broker = { brokerPublicUrl: 'https://broker.example.com/' };

describe('rampConfig', () => {
  it('goes live on the production hosts with the production key when the host API key is set', () => {
    const result = rampConfig(
      RampEnvSchema.parse({ RAMP_HOST_API_KEY: 'pk_live_123', RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef' }),
      { ...broker, simulatorUrl: 'http://127.0.0.1:4010' },
    );
    expect(result).toEqual({
      mode: 'live',
      config: {
        apiUrl: 'https://api.ramp.network/api',
        widgetUrl: 'https://app.ramp.network',
        hostApiKey: 'pk_live_123',
        hostAppName: expect.any(String),
        webhookPublicKey: RAMP_PRODUCTION_WEBHOOK_PUBLIC_KEY,
        brokerPublicUrl: 'https://broker.example.com',
        webhookUrlSecret: 'ramp-webhook-url-secret-0123456789abcdef',
      },
    });
  });

  it('uses the demo widget and the staging key with the demo API', () => {
    const result = rampConfig(
      {
        RAMP_HOST_API_KEY: 'k',
        RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef',
        RAMP_API_URL: 'https://api.demo.ramp.network/api/',
      },
      broker,
    );
    expect(result.mode).toBe('live');
    if (result.mode !== 'live') return;
    expect(result.config.apiUrl).toBe('https://api.demo.ramp.network/api');
    expect(result.config.widgetUrl).toBe('https://app.demo.ramp.network');
    expect(result.config.webhookPublicKey).toBe(RAMP_DEMO_WEBHOOK_PUBLIC_KEY);
  });

  it('takes an overriding public key, also written on one line with \\n', () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const result = rampConfig(
      {
        RAMP_HOST_API_KEY: 'k',
        RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef',
        RAMP_WEBHOOK_PUBLIC_KEY: pem.replaceAll('\n', '\\n'),
      },
      broker,
    );
    expect(result.mode === 'live' && result.config.webhookPublicKey).toBe(pem);
  });

  it('refuses a public key that is not secp256k1', () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() =>
      rampConfig(
        { RAMP_HOST_API_KEY: 'k', RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef', RAMP_WEBHOOK_PUBLIC_KEY: pem },
        broker,
      ),
    ).toThrow(/RAMP_WEBHOOK_PUBLIC_KEY/);
    expect(() =>
      rampConfig(
        {
          RAMP_HOST_API_KEY: 'k',
          RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef',
          RAMP_WEBHOOK_PUBLIC_KEY: 'not a key',
        },
        broker,
      ),
    ).toThrow(ConfigError);
  });

  it('runs against the simulator without credentials', () => {
    expect(rampConfig({}, { ...broker, simulatorUrl: 'http://127.0.0.1:4010/' })).toEqual({
      mode: 'simulator',
      config: {
        apiUrl: 'http://127.0.0.1:4010/ramp/api',
        widgetUrl: 'http://127.0.0.1:4010/ramp/app',
        hostApiKey: RAMP_SIMULATOR_CREDENTIALS.hostApiKey,
        hostAppName: expect.any(String),
        webhookPublicKey: RAMP_SIMULATOR_CREDENTIALS.webhookPublicKey,
        brokerPublicUrl: 'https://broker.example.com',
        webhookUrlSecret: RAMP_SIMULATOR_WEBHOOK_URL_SECRET,
      },
    });
  });

  it('is disabled with neither credentials nor a simulator', () => {
    expect(rampConfig({}, broker)).toEqual({ mode: 'disabled', reason: expect.stringContaining('RAMP_HOST_API_KEY') });
  });

  it('needs the webhook URL secret with a host API key, and the key with the secret', () => {
    expect(() => rampConfig({ RAMP_HOST_API_KEY: 'k' }, broker)).toThrow(/RAMP_WEBHOOK_URL_SECRET: required/);
    expect(() => rampConfig({ RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef' }, broker)).toThrow(/RAMP_HOST_API_KEY/);
    expect(RampEnvSchema.safeParse({ RAMP_WEBHOOK_URL_SECRET: 'too-short' }).success).toBe(false);
  });

  it('names the missing host API key when only overrides are set', () => {
    expect(() => rampConfig({ RAMP_API_URL: 'https://api.demo.ramp.network/api' }, broker)).toThrow(ConfigError);
    expect(() => rampConfig({ RAMP_WIDGET_URL: 'https://app.demo.ramp.network' }, broker)).toThrow(/RAMP_HOST_API_KEY/);
  });

  it('treats every variable as an optional string and checks the URLs', () => {
    expect(RampEnvSchema.parse({})).toEqual({});
    expect(RampEnvSchema.safeParse({ RAMP_API_URL: 'not a url' }).success).toBe(false);
  });
});
