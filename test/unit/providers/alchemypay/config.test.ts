import {
  ALCHEMYPAY_SIMULATOR_CREDENTIALS,
  alchemypayConfig,
  alchemypaySimulatorCredentials,
} from '../../../../src/providers/alchemypay/config';
import { ConfigError } from '../../../../src/providers/kit/config';

const endpoints = { brokerPublicUrl: 'https://broker.example/', simulatorUrl: 'http://127.0.0.1:4010' };

test('no credentials: the simulator with the development credentials', () => {
  expect(alchemypayConfig({}, endpoints)).toEqual({
    mode: 'simulator',
    config: {
      ...ALCHEMYPAY_SIMULATOR_CREDENTIALS,
      apiUrl: 'http://127.0.0.1:4010/alchemypay',
      rampUrl: 'http://127.0.0.1:4010/alchemypay/ramp',
      brokerPublicUrl: 'https://broker.example',
    },
  });
});

test('no credentials and no simulator: disabled', () => {
  expect(alchemypayConfig({}, { brokerPublicUrl: 'https://broker.example' }).mode).toBe('disabled');
});

test('all credentials: live on Alchemy Pay production hosts unless overridden', () => {
  const live = alchemypayConfig({ ALCHEMYPAY_APP_ID: 'id', ALCHEMYPAY_APP_SECRET: 's' }, endpoints);
  expect(live).toMatchObject({
    mode: 'live',
    config: { apiUrl: 'https://openapi.alchemypay.org', rampUrl: 'https://ramp.alchemypay.org' },
  });
  const test = alchemypayConfig(
    {
      ALCHEMYPAY_APP_ID: 'id',
      ALCHEMYPAY_APP_SECRET: 's',
      ALCHEMYPAY_API_URL: 'https://openapi-test.alchemypay.org/',
      ALCHEMYPAY_RAMP_URL: 'https://ramptest.alchemypay.org',
    },
    endpoints,
  );
  expect(test).toMatchObject({ config: { apiUrl: 'https://openapi-test.alchemypay.org', rampUrl: 'https://ramptest.alchemypay.org' } });
});

test('some credentials: a ConfigError naming the missing one', () => {
  expect(() => alchemypayConfig({ ALCHEMYPAY_APP_ID: 'id' }, endpoints)).toThrow(/ALCHEMYPAY_APP_SECRET/);
  expect(() => alchemypayConfig({ ALCHEMYPAY_APP_ID: 'id' }, endpoints)).toThrow(ConfigError);
});

test('a URL without credentials, or not http(s), is refused', () => {
  expect(() => alchemypayConfig({ ALCHEMYPAY_API_URL: 'https://x' }, endpoints)).toThrow(/without Alchemy Pay credentials/);
  expect(() => alchemypayConfig({ ALCHEMYPAY_APP_ID: 'i', ALCHEMYPAY_APP_SECRET: 's', ALCHEMYPAY_RAMP_URL: 'ftp://x' }, endpoints)).toThrow(
    /ALCHEMYPAY_RAMP_URL/,
  );
});

test('SIMULATOR_SECRET derives a private app secret', () => {
  const derived = alchemypaySimulatorCredentials('private');
  expect(derived.appSecret).not.toBe(ALCHEMYPAY_SIMULATOR_CREDENTIALS.appSecret);
  expect(derived.appSecret).toBe(alchemypaySimulatorCredentials('private').appSecret);
});
