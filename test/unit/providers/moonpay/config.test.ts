import { ConfigError } from '../../../../src/config/env';
import { MOONPAY_SIMULATOR_CREDENTIALS, moonpayConfig, MoonpayEnvSchema } from '../../../../src/providers/moonpay/config';

const BROKER = 'https://broker.example/';
const TEST_KEYS = { MOONPAY_PUBLISHABLE_KEY: 'pk_test_abc', MOONPAY_SECRET_KEY: 'sk_test_def', MOONPAY_WEBHOOK_KEY: 'wk_test_ghi' };
const LIVE_KEYS = { MOONPAY_PUBLISHABLE_KEY: 'pk_live_abc', MOONPAY_SECRET_KEY: 'sk_live_def', MOONPAY_WEBHOOK_KEY: 'wk_live_ghi' };

function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('moonpayConfig', () => {
  test('test keys: live mode against MoonPay with the sandbox widget', () => {
    expect(moonpayConfig(MoonpayEnvSchema.parse(TEST_KEYS), { brokerPublicUrl: BROKER, simulatorUrl: 'http://127.0.0.1:4010' })).toEqual({
      mode: 'live',
      config: {
        publishableKey: 'pk_test_abc',
        secretKey: 'sk_test_def',
        webhookKey: 'wk_test_ghi',
        apiUrl: 'https://api.moonpay.com',
        widgetUrl: 'https://buy-sandbox.moonpay.com',
        brokerPublicUrl: 'https://broker.example',
      },
    });
  });

  test('live keys use the production widget; overrides replace the hosts', () => {
    const live = moonpayConfig(MoonpayEnvSchema.parse(LIVE_KEYS), { brokerPublicUrl: BROKER });
    expect(live.mode === 'live' && live.config.widgetUrl).toBe('https://buy.moonpay.com');
    const overridden = moonpayConfig(
      MoonpayEnvSchema.parse({
        ...LIVE_KEYS,
        MOONPAY_API_URL: 'https://api.proxy.example/',
        MOONPAY_WIDGET_URL: 'https://widget.proxy.example',
      }),
      { brokerPublicUrl: BROKER },
    );
    expect(overridden.mode === 'live' && [overridden.config.apiUrl, overridden.config.widgetUrl]).toEqual([
      'https://api.proxy.example',
      'https://widget.proxy.example',
    ]);
  });

  test('no credentials: the simulator under /moonpay with its fixed credentials, or disabled without one', () => {
    expect(moonpayConfig({}, { brokerPublicUrl: BROKER, simulatorUrl: 'http://127.0.0.1:4010/' })).toEqual({
      mode: 'simulator',
      config: {
        ...MOONPAY_SIMULATOR_CREDENTIALS,
        apiUrl: 'http://127.0.0.1:4010/moonpay',
        widgetUrl: 'http://127.0.0.1:4010/moonpay/widget',
        brokerPublicUrl: 'https://broker.example',
      },
    });
    expect(moonpayConfig(MoonpayEnvSchema.parse({ MOONPAY_SECRET_KEY: '  ' }), { brokerPublicUrl: BROKER })).toMatchObject({
      mode: 'disabled',
    });
  });

  test('partial credentials name the missing variables', () => {
    expect(problems(() => moonpayConfig({ MOONPAY_PUBLISHABLE_KEY: 'pk_test_abc' }, { brokerPublicUrl: BROKER }))).toEqual([
      expect.stringMatching(/^MOONPAY_SECRET_KEY: required/),
      expect.stringMatching(/^MOONPAY_WEBHOOK_KEY: required/),
    ]);
  });

  test('keys of the wrong kind or of different modes are refused', () => {
    expect(problems(() => moonpayConfig({ ...TEST_KEYS, MOONPAY_PUBLISHABLE_KEY: 'sk_test_abc' }, { brokerPublicUrl: BROKER }))[0]).toMatch(
      /^MOONPAY_PUBLISHABLE_KEY/,
    );
    expect(problems(() => moonpayConfig({ ...TEST_KEYS, MOONPAY_SECRET_KEY: 'sk_live_def' }, { brokerPublicUrl: BROKER }))[0]).toMatch(
      /^MOONPAY_SECRET_KEY: a live key beside a test publishable key/,
    );
  });

  test('URL overrides need credentials and must be URLs', () => {
    expect(problems(() => moonpayConfig({ MOONPAY_API_URL: 'https://api.proxy.example' }, { brokerPublicUrl: BROKER }))[0]).toMatch(
      /^MOONPAY_API_URL/,
    );
    expect(problems(() => moonpayConfig({ ...TEST_KEYS, MOONPAY_WIDGET_URL: 'not a url' }, { brokerPublicUrl: BROKER }))[0]).toMatch(
      /^MOONPAY_WIDGET_URL/,
    );
  });
});
