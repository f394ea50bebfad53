import { ConfigError } from '../../../../src/config/env';
import {
  TRANSAK_API_URL,
  TRANSAK_GATEWAY_URL,
  TRANSAK_SIMULATOR_CREDENTIALS,
  transakConfig,
  TransakEnvSchema,
} from '../../../../src/providers/transak/config';

const broker = { brokerPublicUrl: 'https://broker.example.com/' };

describe('transakConfig', () => {
  it('is live on Transak production hosts when both credentials are set', () => {
    const env = TransakEnvSchema.parse({ TRANSAK_API_KEY: 'key', TRANSAK_API_SECRET: 'secret' });
    expect(transakConfig(env, { ...broker, simulatorUrl: 'http://127.0.0.1:4010' })).toEqual({
      mode: 'live',
      config: {
        apiUrl: TRANSAK_API_URL,
        gatewayUrl: TRANSAK_GATEWAY_URL,
        apiKey: 'key',
        apiSecret: 'secret',
        referrerDomain: 'broker.example.com',
        brokerPublicUrl: 'https://broker.example.com',
      },
    });
  });

  it('takes staging hosts and the referrer domain from the overrides', () => {
    const env = TransakEnvSchema.parse({
      TRANSAK_API_KEY: 'key',
      TRANSAK_API_SECRET: 'secret',
      TRANSAK_API_URL: 'https://api-stg.transak.com/',
      TRANSAK_GATEWAY_URL: 'https://api-gateway-stg.transak.com',
      TRANSAK_REFERRER_DOMAIN: 'wallet.example',
    });
    expect(transakConfig(env, broker)).toMatchObject({
      mode: 'live',
      config: {
        apiUrl: 'https://api-stg.transak.com',
        gatewayUrl: 'https://api-gateway-stg.transak.com',
        referrerDomain: 'wallet.example',
      },
    });
  });

  it('uses the simulator with its fixed credentials when there are none', () => {
    expect(transakConfig({}, { ...broker, simulatorUrl: 'http://127.0.0.1:4010/' })).toEqual({
      mode: 'simulator',
      config: {
        apiUrl: 'http://127.0.0.1:4010/transak',
        gatewayUrl: 'http://127.0.0.1:4010/transak',
        ...TRANSAK_SIMULATOR_CREDENTIALS,
        referrerDomain: 'broker.example.com',
        brokerPublicUrl: 'https://broker.example.com',
      },
    });
  });

  it('is disabled without credentials or simulator', () => {
    expect(transakConfig({}, broker)).toMatchObject({ mode: 'disabled', reason: expect.stringContaining('TRANSAK_API_KEY') });
  });

  it.each([
    [{ TRANSAK_API_KEY: 'key' }, 'TRANSAK_API_SECRET'],
    [{ TRANSAK_API_SECRET: 'secret' }, 'TRANSAK_API_KEY'],
  ])('refuses partial credentials %j, naming %s', (vars, missing) => {
    let error: unknown;
    try {
      transakConfig(TransakEnvSchema.parse(vars), broker);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems[0]).toMatch(new RegExp(`^${missing}:`));
  });

  it('refuses a base URL override that is not a URL', () => {
    expect(TransakEnvSchema.safeParse({ TRANSAK_API_URL: 'api-stg.transak.com' }).success).toBe(false);
  });
});
