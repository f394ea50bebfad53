import { ConfigError } from '../../../../src/config/env';
import { BANXA_SIMULATOR_CREDENTIALS, banxaConfig, BanxaEnvSchema } from '../../../../src/providers/banxa/config';

const LIVE = {
  BANXA_API_KEY: 'key_live_123',
  BANXA_API_SECRET: 'secret_live_456',
  BANXA_BASE_URL: 'https://api.banxa.com/mywallet/',
};
const options = { simulatorUrl: 'http://127.0.0.1:4010/', brokerPublicUrl: 'https://broker.example/base/' };

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('banxaConfig', () => {
  test('live with key, secret and the partner base URL', () => {
    expect(banxaConfig(BanxaEnvSchema.parse(LIVE), options)).toEqual({
      mode: 'live',
      config: {
        apiKey: 'key_live_123',
        apiSecret: 'secret_live_456',
        baseUrl: 'https://api.banxa.com/mywallet',
        brokerPublicUrl: 'https://broker.example/base',
        webhookPath: '/base/api/webhooks/banxa',
      },
    });
  });

  test('the simulator under <simulatorUrl>/banxa with its fixed credentials when nothing is set', () => {
    expect(banxaConfig(BanxaEnvSchema.parse({}), options)).toEqual({
      mode: 'simulator',
      config: {
        ...BANXA_SIMULATOR_CREDENTIALS,
        baseUrl: 'http://127.0.0.1:4010/banxa',
        brokerPublicUrl: 'https://broker.example/base',
        webhookPath: '/base/api/webhooks/banxa',
      },
    });
  });

  test('disabled without credentials and without a simulator', () => {
    const result = banxaConfig(BanxaEnvSchema.parse({ BANXA_API_KEY: '  ' }), { brokerPublicUrl: 'http://localhost:3000' });
    expect(result.mode).toBe('disabled');
  });

  test.each([
    [{ BANXA_API_KEY: 'k' }, ['BANXA_API_SECRET', 'BANXA_BASE_URL']],
    [{ BANXA_API_KEY: 'k', BANXA_API_SECRET: 's' }, ['BANXA_BASE_URL']],
    [{ BANXA_BASE_URL: 'https://api.banxa.com/x' }, ['BANXA_API_KEY', 'BANXA_API_SECRET']],
  ])('partial credentials %j name the missing variables', (env, missing) => {
    const error = configError(() => banxaConfig(BanxaEnvSchema.parse(env), options));
    expect(error.problems.map((p) => p.split(':')[0])).toEqual(missing);
  });

  test('a base URL that is not an http(s) URL is refused', () => {
    const error = configError(() => banxaConfig(BanxaEnvSchema.parse({ ...LIVE, BANXA_BASE_URL: 'api.banxa.com/x' }), options));
    expect(error.problems[0]).toMatch(/^BANXA_BASE_URL:/);
  });
});
