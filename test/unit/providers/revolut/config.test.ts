import { ConfigError } from '../../../../src/config/env';
import {
  REVOLUT_LIVE_API_URL,
  REVOLUT_SIMULATOR_CREDENTIALS,
  revolutConfig,
  RevolutEnvSchema,
  revolutSimulatorCredentials,
} from '../../../../src/providers/revolut/config';

const BROKER = 'https://broker.example/';
const KEYS = { REVOLUT_API_KEY: 'live-key', REVOLUT_WEBHOOK_SECRET: 'wsk_live' };

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('revolutConfig', () => {
  test('both credentials: live against Revolut, or the override URL', () => {
    expect(revolutConfig(RevolutEnvSchema.parse(KEYS), { brokerPublicUrl: BROKER, simulatorUrl: 'http://127.0.0.1:4010' })).toEqual({
      mode: 'live',
      config: { apiKey: 'live-key', webhookSecret: 'wsk_live', apiUrl: REVOLUT_LIVE_API_URL, brokerPublicUrl: 'https://broker.example' },
    });
    const test = revolutConfig(
      RevolutEnvSchema.parse({ ...KEYS, REVOLUT_API_URL: 'https://ramp-partners.revolut.codes/partners/api/2.0/' }),
      { brokerPublicUrl: BROKER },
    );
    expect(test.mode === 'live' && test.config.apiUrl).toBe('https://ramp-partners.revolut.codes/partners/api/2.0');
  });

  test('none: the simulator with the development credentials, or those derived from SIMULATOR_SECRET', () => {
    const sim = revolutConfig(RevolutEnvSchema.parse({}), { brokerPublicUrl: BROKER, simulatorUrl: 'http://127.0.0.1:4010/' });
    expect(sim).toEqual({
      mode: 'simulator',
      config: {
        ...REVOLUT_SIMULATOR_CREDENTIALS,
        apiUrl: 'http://127.0.0.1:4010/revolut/partners/api/2.0',
        brokerPublicUrl: 'https://broker.example',
      },
    });
    const derived = revolutSimulatorCredentials('a private simulator secret');
    expect(derived.apiKey).not.toBe(REVOLUT_SIMULATOR_CREDENTIALS.apiKey);
    expect(derived.webhookSecret).toMatch(/^wsk_[0-9a-f]{64}$/);
    expect(revolutSimulatorCredentials('another secret').webhookSecret).not.toBe(derived.webhookSecret);
  });

  test('none and no simulator: disabled', () => {
    expect(revolutConfig(RevolutEnvSchema.parse({}), { brokerPublicUrl: BROKER })).toMatchObject({ mode: 'disabled' });
  });

  test('one credential without the other names the missing variable; a bad or stray URL is refused', () => {
    expect(problems(() => revolutConfig(RevolutEnvSchema.parse({ REVOLUT_API_KEY: 'k' }), { brokerPublicUrl: BROKER }))).toEqual([
      'REVOLUT_WEBHOOK_SECRET: required when any Revolut Ramp credential is set',
    ]);
    expect(
      problems(() => revolutConfig(RevolutEnvSchema.parse({ ...KEYS, REVOLUT_API_URL: 'ftp://x' }), { brokerPublicUrl: BROKER })),
    ).toEqual(['REVOLUT_API_URL: expected an http(s) URL']);
    expect(
      problems(() => revolutConfig(RevolutEnvSchema.parse({ REVOLUT_API_URL: 'https://proxy.example' }), { brokerPublicUrl: BROKER })),
    ).toHaveLength(1);
  });
});
