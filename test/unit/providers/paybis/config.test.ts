import { createPrivateKey, createPublicKey } from 'node:crypto';
import { ConfigError } from '../../../../src/config/env';
import {
  paybisConfig,
  PaybisEnvSchema,
  paybisSimulatorCredentials,
  paybisSimulatorKeys,
  PAYBIS_PUBLISHED_VALUES,
  PAYBIS_SIMULATOR_CREDENTIALS,
} from '../../../../src/providers/paybis/config';
import { DEV_PARTNER_PRIVATE_KEY, DEV_PAYBIS_WEBHOOK_PUBLIC_KEY } from '../../../../src/providers/paybis/development-keys';

const LIVE = {
  PAYBIS_API_KEY: 'pk_live_123',
  PAYBIS_PRIVATE_KEY: DEV_PARTNER_PRIVATE_KEY.replaceAll('\n', '\\n'),
  PAYBIS_WEBHOOK_PUBLIC_KEY: DEV_PAYBIS_WEBHOOK_PUBLIC_KEY,
};
const options = { simulatorUrl: 'http://127.0.0.1:4010/', brokerPublicUrl: 'https://broker.example/' };

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('paybisConfig', () => {
  test('live with the API key and both PEMs (line breaks written as \\n are read)', () => {
    const resolved = paybisConfig(PaybisEnvSchema.parse(LIVE), options);
    expect(resolved).toMatchObject({
      mode: 'live',
      config: { apiKey: 'pk_live_123', apiUrl: 'https://widget-api.paybis.com', widgetUrl: 'https://widget.paybis.com' },
    });
    if (resolved.mode === 'live') expect(resolved.config.privateKey).toBe(DEV_PARTNER_PRIVATE_KEY);
  });

  test('the sandbox hosts by override', () => {
    const env = {
      ...LIVE,
      PAYBIS_API_URL: 'https://widget-api.sandbox.paybis.com/',
      PAYBIS_WIDGET_URL: 'https://widget.sandbox.paybis.com',
    };
    expect(paybisConfig(PaybisEnvSchema.parse(env), options)).toMatchObject({
      config: { apiUrl: 'https://widget-api.sandbox.paybis.com', widgetUrl: 'https://widget.sandbox.paybis.com' },
    });
  });

  test('some credentials, or a URL alone, name the missing ones', () => {
    expect(configError(() => paybisConfig(PaybisEnvSchema.parse({ PAYBIS_API_KEY: 'k' }), options)).message).toMatch(
      /PAYBIS_PRIVATE_KEY.*PAYBIS_WEBHOOK_PUBLIC_KEY|PAYBIS_WEBHOOK_PUBLIC_KEY.*PAYBIS_PRIVATE_KEY/s,
    );
    expect(configError(() => paybisConfig(PaybisEnvSchema.parse({ PAYBIS_API_URL: 'https://x.example' }), options)).message).toMatch(
      /PAYBIS_API_KEY/,
    );
  });

  test('keys that are not RSA PEMs are refused', () => {
    expect(configError(() => paybisConfig(PaybisEnvSchema.parse({ ...LIVE, PAYBIS_PRIVATE_KEY: 'nope' }), options)).message).toMatch(
      /PAYBIS_PRIVATE_KEY/,
    );
  });

  test('without credentials: the simulator with the development credentials, or disabled without a simulator', () => {
    expect(paybisConfig(PaybisEnvSchema.parse({}), options)).toMatchObject({
      mode: 'simulator',
      config: { ...PAYBIS_SIMULATOR_CREDENTIALS, apiUrl: 'http://127.0.0.1:4010/paybis', widgetUrl: 'http://127.0.0.1:4010/paybis/widget' },
    });
    expect(paybisConfig(PaybisEnvSchema.parse({}), { brokerPublicUrl: 'https://b.example' }).mode).toBe('disabled');
  });

  test('every development credential is published, so production refuses it', () => {
    for (const value of Object.values(PAYBIS_SIMULATOR_CREDENTIALS)) expect(PAYBIS_PUBLISHED_VALUES).toContain(value);
  });

  test('with SIMULATOR_SECRET both sides derive the same key pairs, others per secret, none published', () => {
    const secret = 's'.repeat(40);
    const broker = paybisSimulatorCredentials(secret);
    const simulator = paybisSimulatorKeys(secret);
    const spki = (key: Parameters<typeof createPublicKey>[0]) => createPublicKey(key).export({ type: 'spki', format: 'pem' });
    expect(spki(createPrivateKey(broker.privateKey))).toBe(simulator.partnerPublicKey.export({ type: 'spki', format: 'pem' }));
    expect(spki(simulator.webhookSigningKey)).toBe(broker.webhookPublicKey);
    expect(broker.apiKey).toBe(simulator.apiKey);
    expect(paybisSimulatorCredentials(secret)).toEqual(broker);
    for (const value of Object.values(broker)) expect(PAYBIS_PUBLISHED_VALUES).not.toContain(value);
    expect(paybisSimulatorCredentials('t'.repeat(40)).webhookPublicKey).not.toBe(broker.webhookPublicKey);
  }, 30_000);
});
