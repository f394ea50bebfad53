import { createPublicKey, sign, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  buildConfig,
  ConfigError,
  DEFAULT_SANDBOX_PORT,
  DEV_SANDBOX_API_KEY,
  DEV_SANDBOX_WEBHOOK_SECRET,
  loadConfig,
  parseEnv,
  sandboxCredentials,
  withEndpoints,
  type AppConfig,
} from '../../../src/config';
import { parseSimulatorEnv } from '../../../src/config/simulator-env';
import { BANXA_SIMULATOR_CREDENTIALS } from '../../../src/providers/banxa/config';
import { MOONPAY_SIMULATOR_CREDENTIALS } from '../../../src/providers/moonpay/config';
import { RAMP_SIMULATOR_CREDENTIALS, RAMP_SIMULATOR_WEBHOOK_URL_SECRET } from '../../../src/providers/ramp/config';
import { rampSimulatorSigningKey } from '../../../src/simulators/ramp/signing';
import { DEFAULT_DEV_API_KEY, DEFAULT_DEV_RANKING_CUSTOMER_KEY, DEFAULT_DEV_WEBHOOK_SECRET } from '../../../src/config/env';
import { sha256Hex } from '../../../src/config/integrators';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from '../../../src/webhooks/retry';
import { TEST_ENCRYPTION_KEYS, TEST_RANKING_CUSTOMER_KEY } from '../../helpers/config';
import { KIT_PROVIDER_CODES, PROVIDER_TEST_KITS } from '../../helpers/providers';

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

const PROD_KEY = 'prod-key-0123456789abcdef';
const SIMULATOR_SECRET = 'a-private-simulator-secret-0123456789abcdef';

const modes = (config: AppConfig) => Object.fromEntries(Object.entries(config.providers).map(([code, r]) => [code, r.mode]));
/** Every provider: the test kits' codes, which the compiler holds to the manifest's. */
const everyProvider = (mode: string) => Object.fromEntries(KIT_PROVIDER_CODES.map((code) => [code, mode]));

describe('parseEnv defaults (development)', () => {
  const env = parseEnv({});

  test('optional variables stay unset', () => {
    for (const name of [
      'PUBLIC_BASE_URL',
      'ONRAMP_API_KEY',
      'ONRAMP_WEBHOOK_URL',
      'ONRAMP_WEBHOOK_SECRET',
      'ONRAMP_INTEGRATORS_FILE',
      'REDIS_URL',
      'SANDBOX_URL',
      'SANDBOX_API_KEY',
      'SANDBOX_WEBHOOK_SECRET',
      'SIMULATOR_SECRET',
    ] as const) {
      expect(env[name]).toBeUndefined();
    }
  });

  test('every default', () => {
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: 3000,
      LOG_LEVEL: 'info',
      TEMPORAL_ADDRESS: '127.0.0.1:7233',
      TEMPORAL_NAMESPACE: 'default',
      TEMPORAL_TASK_QUEUE: 'onramp-orders',
      OFFER_TTL_SECONDS: 120,
      OFFERS_PROVIDER_TIMEOUT_MS: 3000,
      OFFERS_DEADLINE_MULTIPLIER: 2,
      OFFERS_DEADLINE_FLOOR_MS: 250,
      PROVIDER_BREAKER_FAILURES: 5,
      PROVIDER_BREAKER_FAILURE_RATE: 0.5,
      PROVIDER_BREAKER_WINDOW: 20,
      PROVIDER_BREAKER_OPEN_MS: 30_000,
      PROVIDER_BREAKER_PROBES: 1,
      PROVIDER_QUOTE_CONCURRENCY: 64,
      PROVIDER_QUOTE_INTEGRATOR_SHARE: 0.875,
      RANKING_HALF_LIFE_HOURS: 168,
      RANKING_PRIOR_WEIGHT: 20,
      RANKING_RETURNING_BOOST: 0.5,
      RANKING_REFRESH_MS: 5000,
      ORDER_POLL_INITIAL_SECONDS: 30,
      ORDER_POLL_MAX_SECONDS: 1800,
      ORDER_PAYMENT_WINDOW_SECONDS: 86_400,
      ORDER_SETTLED_GRACE_SECONDS: 604_800,
      ORDER_REVIEW_AFTER_SECONDS: 432_000,
      SANDBOX_IN_PRODUCTION: false,
    });
  });

  test('does not read process.env when given a source', () => {
    expect(parseEnv({ PORT: '4321' }).PORT).toBe(4321);
  });
});

describe('parseEnv values', () => {
  test('numbers are coerced from strings', () => {
    const env = parseEnv({
      PORT: '8080',
      OFFER_TTL_SECONDS: '60',
      OFFERS_PROVIDER_TIMEOUT_MS: '1500',
      ORDER_POLL_INITIAL_SECONDS: '0.5',
    });
    expect(env.PORT).toBe(8080);
    expect(env.OFFER_TTL_SECONDS).toBe(60);
    expect(env.OFFERS_PROVIDER_TIMEOUT_MS).toBe(1500);
    expect(env.ORDER_POLL_INITIAL_SECONDS).toBe(0.5);
  });

  test('the offers deadline and the quote cap', () => {
    const env = parseEnv({ OFFERS_DEADLINE_MULTIPLIER: '2.5', OFFERS_DEADLINE_FLOOR_MS: '400', PROVIDER_QUOTE_CONCURRENCY: '8' });
    expect([env.OFFERS_DEADLINE_MULTIPLIER, env.OFFERS_DEADLINE_FLOOR_MS, env.PROVIDER_QUOTE_CONCURRENCY]).toEqual([2.5, 400, 8]);
    expect(parseEnv({ PROVIDER_QUOTE_INTEGRATOR_SHARE: '0.5' }).PROVIDER_QUOTE_INTEGRATOR_SHARE).toBe(0.5);
    expect(parseEnv({ PROVIDER_QUOTE_INTEGRATOR_SHARE: '1' }).PROVIDER_QUOTE_INTEGRATOR_SHARE).toBe(1);
  });

  test('the provider breaker', () => {
    const config = loadConfig({
      PROVIDER_BREAKER_FAILURES: '3',
      PROVIDER_BREAKER_FAILURE_RATE: '0.25',
      PROVIDER_BREAKER_WINDOW: '10',
      PROVIDER_BREAKER_OPEN_MS: '5000',
      PROVIDER_BREAKER_PROBES: '2',
    });
    expect(config.providerBreaker).toEqual({ failures: 3, failureRate: 0.25, window: 10, openMs: 5000, probes: 2 });
    expect(loadConfig({ PROVIDER_BREAKER_FAILURES: '0' }).providerBreaker.failures).toBe(0);
    expect(parseEnv({ PROVIDER_BREAKER_FAILURE_RATE: '1' }).PROVIDER_BREAKER_FAILURE_RATE).toBe(1);
  });

  test('the ranking settings', () => {
    const env = parseEnv({
      RANKING_HALF_LIFE_HOURS: '0.5',
      RANKING_PRIOR_WEIGHT: '0',
      RANKING_RETURNING_BOOST: '1',
      RANKING_REFRESH_MS: '250',
    });
    expect([env.RANKING_HALF_LIFE_HOURS, env.RANKING_PRIOR_WEIGHT, env.RANKING_RETURNING_BOOST, env.RANKING_REFRESH_MS]).toEqual([
      0.5, 0, 1, 250,
    ]);
    expect(buildConfig(env).ranking).toEqual({ halfLifeMs: 1_800_000, priorWeight: 0, returningBoost: 1, refreshMs: 250 });
  });

  test.each(['0', '1', '65535'])('PORT %s is accepted', (port) => {
    expect(parseEnv({ PORT: port }).PORT).toBe(Number(port));
  });

  test.each(['5', '3600'])('OFFER_TTL_SECONDS %s is accepted (bounds)', (ttl) => {
    expect(parseEnv({ OFFER_TTL_SECONDS: ttl }).OFFER_TTL_SECONDS).toBe(Number(ttl));
  });

  test('optional strings are trimmed', () => {
    expect(parseEnv({ PUBLIC_BASE_URL: '  https://broker.example.com  ' }).PUBLIC_BASE_URL).toBe('https://broker.example.com');
  });

  test.each([
    'PUBLIC_BASE_URL',
    'ONRAMP_API_KEY',
    'ONRAMP_WEBHOOK_URL',
    'ONRAMP_WEBHOOK_SECRET',
    'ONRAMP_INTEGRATORS_FILE',
    'REDIS_URL',
    'SANDBOX_URL',
    'SANDBOX_API_KEY',
    'SANDBOX_WEBHOOK_SECRET',
    'SIMULATOR_SECRET',
  ])('an empty %s counts as unset', (name) => {
    expect(parseEnv({ [name]: '' })[name as keyof ReturnType<typeof parseEnv>]).toBeUndefined();
    expect(parseEnv({ [name]: '   ' })[name as keyof ReturnType<typeof parseEnv>]).toBeUndefined();
  });

  test.each([
    ['PORT', 3000],
    ['HOST', '127.0.0.1'],
    ['NODE_ENV', 'development'],
    ['LOG_LEVEL', 'info'],
    ['TEMPORAL_ADDRESS', '127.0.0.1:7233'],
    ['OFFER_TTL_SECONDS', 120],
    ['OFFERS_PROVIDER_TIMEOUT_MS', 3000],
    ['ORDER_CREATE_TIMEOUT_SECONDS', 30],
    ['ORDER_POLL_INITIAL_SECONDS', 30],
  ])('an empty %s takes its default', (name, expected) => {
    expect(parseEnv({ [name]: '' })[name as keyof ReturnType<typeof parseEnv>]).toBe(expected);
  });

  test.each([
    ['PORT', '0x10'],
    ['PORT', '1e3'],
    ['PORT', '80.5'],
    ['OFFER_TTL_SECONDS', '1e2'],
    ['ORDER_POLL_INITIAL_SECONDS', '-5'],
  ])('%s=%s is refused rather than read loosely', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseEnv({ [name]: value })).toThrow(name);
  });
});

describe('parseEnv refuses bad values, naming the variable', () => {
  test.each<[string, string]>([
    ['PORT', 'abc'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '80.5'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['ONRAMP_WEBHOOK_URL', 'nope'],
    ['REDIS_URL', 'localhost'],
    ['SANDBOX_URL', '127.0.0.1:4010'],
    ['OFFER_TTL_SECONDS', 'soon'],
    ['OFFER_TTL_SECONDS', '4'],
    ['OFFER_TTL_SECONDS', '3601'],
    ['OFFER_TTL_SECONDS', '1.5'],
    ['OFFERS_PROVIDER_TIMEOUT_MS', '49'],
    ['OFFERS_PROVIDER_TIMEOUT_MS', '60001'],
    ['OFFERS_DEADLINE_MULTIPLIER', '0.5'],
    ['OFFERS_DEADLINE_MULTIPLIER', 'twice'],
    ['OFFERS_DEADLINE_FLOOR_MS', '9'],
    ['PROVIDER_BREAKER_FAILURES', '-1'],
    ['PROVIDER_BREAKER_FAILURE_RATE', '0'],
    ['PROVIDER_BREAKER_FAILURE_RATE', '1.5'],
    ['PROVIDER_BREAKER_WINDOW', '0'],
    ['PROVIDER_BREAKER_OPEN_MS', '99'],
    ['PROVIDER_BREAKER_PROBES', '0'],
    ['PROVIDER_QUOTE_CONCURRENCY', '0'],
    ['PROVIDER_QUOTE_INTEGRATOR_SHARE', '0'],
    ['PROVIDER_QUOTE_INTEGRATOR_SHARE', '1.5'],
    ['PROVIDER_QUOTE_INTEGRATOR_SHARE', 'half'],
    ['RANKING_HALF_LIFE_HOURS', '0'],
    ['RANKING_HALF_LIFE_HOURS', 'a week'],
    ['RANKING_PRIOR_WEIGHT', '-1'],
    ['RANKING_RETURNING_BOOST', '1.5'],
    ['RANKING_REFRESH_MS', '99'],
    ['RANKING_REFRESH_MS', '1.5'],
    ['ORDER_POLL_INITIAL_SECONDS', '0'],
    ['ORDER_PAYMENT_WINDOW_SECONDS', '-5'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'verbose'],
    ['ONRAMP_API_KEY', 'short'],
    ['ONRAMP_WEBHOOK_SECRET', 'not-a-whsec'],
    ['ONRAMP_WEBHOOK_SECRET', 'whsec_tooShort'],
    ['SIMULATOR_SECRET', 'shorter-than-32-characters'],
    ['SANDBOX_IN_PRODUCTION', 'maybe'],
  ])('%s=%p', (name, value) => {
    const err = configError(() => parseEnv({ [name]: value }));
    expect(err.name).toBe('ConfigError');
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatch(new RegExp(`^${name}: `));
    expect(err.message).toContain(name);
    expect(err.message.startsWith('Invalid configuration:\n')).toBe(true);
  });

  test('lists every bad variable at once', () => {
    const err = configError(() => parseEnv({ PORT: 'x', OFFER_TTL_SECONDS: '1', PUBLIC_BASE_URL: 'y' }));
    expect(err.problems.map((p) => p.split(':')[0]).sort()).toEqual(['OFFER_TTL_SECONDS', 'PORT', 'PUBLIC_BASE_URL']);
    for (const name of ['PORT', 'OFFER_TTL_SECONDS', 'PUBLIC_BASE_URL']) expect(err.message).toContain(`  - ${name}: `);
  });

  test('loadConfig throws the same ConfigError', () => {
    const err = configError(() => loadConfig({ PORT: 'nope' }));
    expect(err.problems[0]).toMatch(/^PORT: /);
  });
});

describe('production', () => {
  test('without ONRAMP_INTEGRATORS_FILE and without ONRAMP_API_KEY is refused', () => {
    const err = configError(() =>
      parseEnv({ NODE_ENV: 'production', ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS, RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY }),
    );
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatch(/^ONRAMP_INTEGRATORS_FILE: /);
    expect(err.message).toContain('ONRAMP_API_KEY');
  });

  test('empty ONRAMP_INTEGRATORS_FILE and ONRAMP_API_KEY count as unset, so are refused too', () => {
    const err = configError(() =>
      parseEnv({
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
        ONRAMP_INTEGRATORS_FILE: '',
        ONRAMP_API_KEY: '  ',
      }),
    );
    expect(err.problems[0]).toMatch(/^ONRAMP_INTEGRATORS_FILE: /);
  });

  test('ONRAMP_API_KEY alone is enough', () => {
    expect(
      parseEnv({
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
        ONRAMP_API_KEY: PROD_KEY,
      }).ONRAMP_API_KEY,
    ).toBe(PROD_KEY);
  });

  test('ONRAMP_INTEGRATORS_FILE alone passes parseEnv', () => {
    expect(
      parseEnv({
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
        ONRAMP_INTEGRATORS_FILE: '/etc/x.json',
      }).ONRAMP_INTEGRATORS_FILE,
    ).toBe('/etc/x.json');
  });

  test('without SANDBOX_URL there is no simulator host, so every provider without credentials is disabled', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      ONRAMP_API_KEY: PROD_KEY,
    });
    expect(config.simulatorUrl).toBeUndefined();
    expect(modes(config)).toEqual(everyProvider('disabled'));
    expect(config.providers.sandbox).toEqual({ mode: 'disabled', reason: 'no simulator host (SANDBOX_URL is not set)' });
    expect(config.providers.moonpay).toEqual({ mode: 'disabled', reason: expect.stringContaining('no MoonPay credentials') });
    expect(config.env).toBe('production');
  });

  test('an empty SANDBOX_URL still means no simulator host', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      ONRAMP_API_KEY: PROD_KEY,
      SANDBOX_URL: '',
    });
    expect(config.simulatorUrl).toBeUndefined();
    expect(config.providers.sandbox.mode).toBe('disabled');
  });

  test('with SANDBOX_URL and the opt-in every provider without credentials runs against the simulator host (trailing slashes dropped)', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      ONRAMP_API_KEY: PROD_KEY,
      PUBLIC_BASE_URL: 'https://broker.example.com',
      SANDBOX_URL: 'https://sandbox.example.com//',
      SANDBOX_IN_PRODUCTION: 'true',
      SIMULATOR_SECRET: SIMULATOR_SECRET,
      SANDBOX_API_KEY: 'sk_live_sandbox',
      SANDBOX_WEBHOOK_SECRET: 'sandbox-secret',
    });
    expect(config.simulatorUrl).toBe('https://sandbox.example.com');
    expect(config.providers.sandbox).toEqual({
      mode: 'simulator',
      config: { baseUrl: 'https://sandbox.example.com', apiKey: 'sk_live_sandbox', webhookSecret: 'sandbox-secret' },
    });
    expect(modes(config)).toEqual(everyProvider('simulator'));
    expect(config.providers.banxa).toMatchObject({
      config: { baseUrl: 'https://sandbox.example.com/banxa', brokerPublicUrl: 'https://broker.example.com' },
    });
    expect(config.providers.mercuryo).toMatchObject({ config: { widgetUrl: 'https://sandbox.example.com/mercuryo' } });
    expect(config.providers.moonpay).toMatchObject({ config: { apiUrl: 'https://sandbox.example.com/moonpay' } });
    expect(config.providers.ramp).toMatchObject({ config: { apiUrl: 'https://sandbox.example.com/ramp/api' } });
    expect(config.providers.transak).toMatchObject({ config: { apiUrl: 'https://sandbox.example.com/transak' } });
  });

  test('SANDBOX_ENABLED=false leaves out the sandbox provider only; another value is refused', () => {
    const config = loadConfig({ SANDBOX_ENABLED: 'false' });
    expect(config.providers.sandbox).toEqual({ mode: 'disabled', reason: 'SANDBOX_ENABLED is false' });
    expect(config.providers.moonpay.mode).toBe('simulator');
    expect(loadConfig({ SANDBOX_ENABLED: 'true' }).providers.sandbox.mode).toBe('simulator');
    expect(() => loadConfig({ SANDBOX_ENABLED: 'sometimes' })).toThrow('SANDBOX_ENABLED');
  });

  test("a provider's credentials make it live, calling back the broker's public URL", () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      ONRAMP_API_KEY: PROD_KEY,
      PUBLIC_BASE_URL: 'https://broker.example.com/',
      RAMP_HOST_API_KEY: 'ramp-host-key',
      RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef',
    });
    expect(config.providers.ramp).toMatchObject({
      mode: 'live',
      config: { hostApiKey: 'ramp-host-key', brokerPublicUrl: 'https://broker.example.com' },
    });
    expect(config.providers.transak.mode).toBe('disabled');
  });

  test("a provider's partial credentials are a ConfigError naming the missing variable", () => {
    const err = configError(() => loadConfig({ TRANSAK_API_KEY: 'transak-key' }));
    expect(err.problems).toEqual([expect.stringMatching(/^TRANSAK_API_SECRET: /)]);
  });

  test('the single integrator from ONRAMP_API_KEY has no default webhook secret', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      ONRAMP_API_KEY: PROD_KEY,
    });
    expect(config.integrators).toEqual([
      {
        id: 'dev',
        name: 'Development integrator',
        api_key_sha256: [sha256Hex(PROD_KEY)],
        webhook_url: undefined,
        webhook_secret: undefined,
      },
    ]);
  });

  test('integrators come from ONRAMP_INTEGRATORS_FILE when set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'onramp-config-'));
    try {
      const file = join(dir, 'integrators.json');
      const integrators = [{ id: 'acme', name: 'Acme', api_key_sha256: [sha256Hex('acme-key-0123456789')] }];
      writeFileSync(file, JSON.stringify({ integrators }));
      const config = loadConfig({
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
        ONRAMP_INTEGRATORS_FILE: file,
        ONRAMP_API_KEY: PROD_KEY,
      });
      expect(config.integrators).toEqual(integrators);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a missing ONRAMP_INTEGRATORS_FILE is a ConfigError naming the variable', () => {
    const err = configError(() =>
      loadConfig({
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
        ONRAMP_INTEGRATORS_FILE: join(tmpdir(), 'no-such-dir-xyz', 'i.json'),
      }),
    );
    expect(err.message).toContain('ONRAMP_INTEGRATORS_FILE');
  });
});

describe('buildConfig in development', () => {
  const config = loadConfig({});

  test('every field', () => {
    expect(config).toMatchObject({
      env: 'development',
      host: '127.0.0.1',
      port: 3000,
      publicBaseUrl: 'http://localhost:3000',
      logLevel: 'info',
      temporal: { address: '127.0.0.1:7233', namespace: 'default', taskQueue: 'onramp-orders' },
      integrators: [
        {
          id: 'dev',
          name: 'Development integrator',
          api_key_sha256: [sha256Hex(DEFAULT_DEV_API_KEY)],
          webhook_url: undefined,
          webhook_secret: DEFAULT_DEV_WEBHOOK_SECRET,
        },
      ],
      offerTtlSeconds: 120,
      offersProviderTimeoutMs: 3000,
      orderTimings: {
        pollInitialMs: 30_000,
        pollMaxMs: 1_800_000,
        paymentWindowMs: 86_400_000,
        settledGraceMs: 604_800_000,
        reviewAfterMs: 432_000_000,
      },
      redisUrl: undefined,
      ranking: { halfLifeMs: 168 * 3_600_000, priorWeight: 20, returningBoost: 0.5, refreshMs: 5000 },
      simulatorUrl: `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`,
      providers: {
        sandbox: {
          mode: 'simulator',
          config: {
            baseUrl: `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`,
            apiKey: DEV_SANDBOX_API_KEY,
            webhookSecret: DEV_SANDBOX_WEBHOOK_SECRET,
          },
        },
      },
    });
    expect(modes(config)).toEqual(everyProvider('simulator'));
  });

  test('publicBaseUrl follows PORT and drops trailing slashes', () => {
    expect(loadConfig({ PORT: '8080' }).publicBaseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://broker.example.com/' }).publicBaseUrl).toBe('https://broker.example.com');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://broker.example.com/base///' }).publicBaseUrl).toBe('https://broker.example.com/base');
  });

  test('the dev integrator uses ONRAMP_API_KEY, ONRAMP_WEBHOOK_URL and ONRAMP_WEBHOOK_SECRET when set', () => {
    const secret = 'whsec_' + 'A'.repeat(40);
    const [integrator] = loadConfig({
      ONRAMP_API_KEY: 'my-own-key-0123456789',
      ONRAMP_WEBHOOK_URL: 'https://hooks.example.com/onramp',
      ONRAMP_WEBHOOK_SECRET: secret,
    }).integrators;
    expect(integrator).toEqual({
      id: 'dev',
      name: 'Development integrator',
      api_key_sha256: [sha256Hex('my-own-key-0123456789')],
      webhook_url: 'https://hooks.example.com/onramp',
      webhook_secret: secret,
    });
  });

  test('REDIS_URL and the temporal settings pass through', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://cache:6379',
      TEMPORAL_ADDRESS: 'temporal:7233',
      TEMPORAL_NAMESPACE: 'onramp',
      TEMPORAL_TASK_QUEUE: 'q',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'debug',
    });
    expect(config.redisUrl).toBe('redis://cache:6379');
    expect(config.temporal).toEqual({ address: 'temporal:7233', namespace: 'onramp', taskQueue: 'q' });
    expect(config.host).toBe('0.0.0.0');
    expect(config.logLevel).toBe('debug');
  });

  test('test mode also gets the simulator host', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).simulatorUrl).toBe(`http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`);
  });

  test('SANDBOX_PUBLIC_URL moves only the widget links a browser opens, not the API calls', () => {
    const env = { SANDBOX_URL: 'http://sandbox:4010', SANDBOX_PUBLIC_URL: 'http://localhost:4010/' };
    const { providers } = loadConfig(env);
    expect(providers.moonpay).toMatchObject({
      config: { apiUrl: 'http://sandbox:4010/moonpay', widgetUrl: 'http://localhost:4010/moonpay/widget' },
    });
    expect(providers.mercuryo).toMatchObject({
      config: { apiUrl: 'http://sandbox:4010/mercuryo/v1.6', widgetUrl: 'http://localhost:4010/mercuryo' },
    });
    expect(providers.ramp).toMatchObject({
      config: { apiUrl: 'http://sandbox:4010/ramp/api', widgetUrl: 'http://localhost:4010/ramp/app' },
    });
    expect(loadConfig({ SANDBOX_URL: 'http://sandbox:4010' }).providers.moonpay).toMatchObject({
      config: { widgetUrl: 'http://sandbox:4010/moonpay/widget' },
    });
    expect(() => loadConfig({ SANDBOX_PUBLIC_URL: 'not a url' })).toThrow('SANDBOX_PUBLIC_URL');
  });

  test('withEndpoints points the broker and the simulated providers at other addresses', () => {
    const moved = withEndpoints(config, { publicBaseUrl: 'http://127.0.0.1:5000', simulatorUrl: 'http://127.0.0.1:5001' });
    expect(moved.publicBaseUrl).toBe('http://127.0.0.1:5000');
    expect(moved.simulatorUrl).toBe('http://127.0.0.1:5001');
    expect(moved.providers.sandbox).toMatchObject({ config: { baseUrl: 'http://127.0.0.1:5001' } });
    expect(moved.providers.ramp).toMatchObject({
      config: { apiUrl: 'http://127.0.0.1:5001/ramp/api', brokerPublicUrl: 'http://127.0.0.1:5000' },
    });
    expect(moved.port).toBe(config.port);
  });
});

describe('orderTimings are computed in milliseconds', () => {
  test('from the seconds variables', () => {
    expect(
      loadConfig({
        ORDER_POLL_INITIAL_SECONDS: '2',
        ORDER_POLL_MAX_SECONDS: '60',
        ORDER_PAYMENT_WINDOW_SECONDS: '3600',
        ORDER_SETTLED_GRACE_SECONDS: '0.25',
        ORDER_REVIEW_AFTER_SECONDS: '86400',
      }).orderTimings,
    ).toEqual({
      pollInitialMs: 2000,
      pollMaxMs: 60_000,
      paymentWindowMs: 3_600_000,
      settledGraceMs: 250,
      reviewAfterMs: 86_400_000,
      webhookRetryDelaysMs: [...DEFAULT_WEBHOOK_RETRY_DELAYS_MS],
      webhookAttemptTimeoutMs: 15_000,
    });
  });

  test('pollMaxMs is never below pollInitialMs', () => {
    const timings = loadConfig({ ORDER_POLL_INITIAL_SECONDS: '90', ORDER_POLL_MAX_SECONDS: '10' }).orderTimings;
    expect(timings.pollInitialMs).toBe(90_000);
    expect(timings.pollMaxMs).toBe(90_000);
  });

  test('buildConfig uses the parsed values directly', () => {
    const env = parseEnv({ OFFER_TTL_SECONDS: '30', OFFERS_PROVIDER_TIMEOUT_MS: '250' });
    const config = buildConfig(env);
    expect(config.offerTtlSeconds).toBe(30);
    expect(config.offersProviderTimeoutMs).toBe(250);
  });
});

describe('simulated providers in production', () => {
  const PROD_SIMULATED = {
    NODE_ENV: 'production',
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
    ONRAMP_API_KEY: PROD_KEY,
    SANDBOX_URL: 'http://sandbox:4010',
  };

  test('SANDBOX_URL without SANDBOX_IN_PRODUCTION=true is refused, naming the opt-in', () => {
    for (const optIn of [undefined, 'false']) {
      const err = configError(() => loadConfig({ ...PROD_SIMULATED, SANDBOX_IN_PRODUCTION: optIn, SIMULATOR_SECRET }));
      expect(err.problems).toEqual([expect.stringMatching(/^SANDBOX_IN_PRODUCTION: SANDBOX_URL is set in production/)]);
    }
  });

  test('the opt-in needs a SIMULATOR_SECRET that is not published in the repository', () => {
    const missing = configError(() => loadConfig({ ...PROD_SIMULATED, SANDBOX_IN_PRODUCTION: 'true' }));
    expect(missing.problems).toEqual([expect.stringMatching(/^SIMULATOR_SECRET: required in production/)]);
    const published = configError(() =>
      loadConfig({ ...PROD_SIMULATED, SANDBOX_IN_PRODUCTION: 'true', SIMULATOR_SECRET: RAMP_SIMULATOR_WEBHOOK_URL_SECRET }),
    );
    expect(published.problems).toEqual([expect.stringMatching(/^SIMULATOR_SECRET: a value published in this repository/)]);
  });

  test("the sandbox's development key and webhook secret are refused, each by name", () => {
    const err = configError(() =>
      loadConfig({
        ...PROD_SIMULATED,
        SANDBOX_IN_PRODUCTION: 'true',
        SIMULATOR_SECRET,
        SANDBOX_API_KEY: DEV_SANDBOX_API_KEY,
        SANDBOX_WEBHOOK_SECRET: DEV_SANDBOX_WEBHOOK_SECRET,
      }),
    );
    expect(err.problems.map((p) => p.split(':')[0])).toEqual(['SANDBOX_API_KEY', 'SANDBOX_WEBHOOK_SECRET']);
  });

  test('without SANDBOX_URL nothing is simulated, so no opt-in or secret is needed', () => {
    expect(
      modes(
        loadConfig({
          NODE_ENV: 'production',
          ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
          RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
          ONRAMP_API_KEY: PROD_KEY,
        }),
      ).sandbox,
    ).toBe('disabled');
  });

  test('outside production neither is needed', () => {
    expect(loadConfig({ NODE_ENV: 'test', SANDBOX_URL: 'http://sandbox:4010' }).providers.sandbox.mode).toBe('simulator');
  });
});

describe('SIMULATOR_SECRET', () => {
  const derived = loadConfig({ SIMULATOR_SECRET });
  const fixed = loadConfig({});
  /**
   * Each simulated provider's secret credentials, named by its test kit; the identifiers a provider
   * shows in browser URLs are public anyway.
   */
  const secretsOf = (config: AppConfig) =>
    KIT_PROVIDER_CODES.flatMap((code) => {
      const resolution = config.providers[code];
      if (resolution.mode !== 'simulator') throw new Error(`${code} is not simulated`);
      const values = resolution.config as unknown as Record<string, string>;
      const names: readonly string[] = PROVIDER_TEST_KITS[code].secrets.map(String);
      return names.map((name) => ({ credential: `${code}.${name}`, value: values[name] }));
    });

  test('unset, the simulated providers use the repository constants', () => {
    expect(fixed.providers.moonpay).toMatchObject({ config: MOONPAY_SIMULATOR_CREDENTIALS });
    expect(fixed.providers.ramp).toMatchObject({
      config: { ...RAMP_SIMULATOR_CREDENTIALS, webhookUrlSecret: RAMP_SIMULATOR_WEBHOOK_URL_SECRET },
    });
    expect(fixed.providers.sandbox).toMatchObject({ config: { apiKey: DEV_SANDBOX_API_KEY, webhookSecret: DEV_SANDBOX_WEBHOOK_SECRET } });
  });

  test('set, every secret credential of every simulated provider is derived from it, none a repository constant', () => {
    const before = secretsOf(fixed);
    secretsOf(derived).forEach(({ credential, value }, i) => {
      expect(credential).toBe(before[i]!.credential);
      expect({ credential, value }).not.toEqual(before[i]);
    });
    expect(derived.providers.moonpay).toMatchObject({
      config: { secretKey: expect.stringMatching(/^sk_test_[0-9a-f]{64}$/), webhookKey: expect.stringMatching(/^wk_test_[0-9a-f]{64}$/) },
    });
  });

  test('the derivation is deterministic and depends on the secret', () => {
    expect(secretsOf(loadConfig({ SIMULATOR_SECRET }))).toEqual(secretsOf(derived));
    expect(secretsOf(loadConfig({ SIMULATOR_SECRET: `${SIMULATOR_SECRET}!` }))).not.toEqual(secretsOf(derived));
  });

  test("Ramp's derived public key is a secp256k1 key, the public half of the simulator's derived signing key", () => {
    const ramp = derived.providers.ramp;
    if (ramp.mode === 'disabled') throw new Error('ramp is disabled');
    expect(createPublicKey(ramp.config.webhookPublicKey).asymmetricKeyDetails?.namedCurve).toBe('secp256k1');
    const body = Buffer.from('{"type":"RELEASED"}');
    const signature = sign('sha256', body, rampSimulatorSigningKey(SIMULATOR_SECRET));
    expect(verify('sha256', body, ramp.config.webhookPublicKey, signature)).toBe(true);
    expect(verify('sha256', body, RAMP_SIMULATOR_CREDENTIALS.webhookPublicKey, signature)).toBe(false);
  });

  test('SANDBOX_API_KEY and SANDBOX_WEBHOOK_SECRET, when set, win over the derived values', () => {
    expect(
      loadConfig({ SIMULATOR_SECRET, SANDBOX_API_KEY: 'own-key', SANDBOX_WEBHOOK_SECRET: 'own-secret' }).providers.sandbox,
    ).toMatchObject({
      config: { apiKey: 'own-key', webhookSecret: 'own-secret' },
    });
  });

  test('withEndpoints keeps the derived credentials', () => {
    const moved = withEndpoints(derived, { publicBaseUrl: 'http://127.0.0.1:5000', simulatorUrl: 'http://127.0.0.1:5001' });
    expect(secretsOf(moved)).toEqual(secretsOf(derived));
  });
});

describe('the simulator host environment', () => {
  test('defaults, and the same sandbox credentials as the broker', () => {
    const env = parseSimulatorEnv({});
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      SIMULATOR_HOST: '127.0.0.1',
      SIMULATOR_PORT: DEFAULT_SANDBOX_PORT,
      BROKER_URL: 'http://127.0.0.1:3000',
    });
    expect(sandboxCredentials(env)).toEqual({ apiKey: DEV_SANDBOX_API_KEY, webhookSecret: DEV_SANDBOX_WEBHOOK_SECRET });
    const withSecret = parseSimulatorEnv({ SIMULATOR_SECRET, SANDBOX_API_KEY: '' });
    const broker = loadConfig({ SIMULATOR_SECRET }).providers.sandbox;
    expect(broker).toMatchObject({ config: sandboxCredentials(withSecret) });
  });

  test('in production it refuses to start on the published credentials, naming each variable', () => {
    const missing = configError(() =>
      parseSimulatorEnv({ NODE_ENV: 'production', ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS, RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY }),
    );
    expect(missing.problems).toEqual([expect.stringMatching(/^SIMULATOR_SECRET: required in production/)]);
    const published = configError(() =>
      parseSimulatorEnv({
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
        SIMULATOR_SECRET: BANXA_SIMULATOR_CREDENTIALS.apiSecret,
        SANDBOX_WEBHOOK_SECRET: DEV_SANDBOX_WEBHOOK_SECRET,
      }),
    );
    expect(published.problems.map((p) => p.split(':')[0])).toEqual(['SIMULATOR_SECRET', 'SANDBOX_WEBHOOK_SECRET']);
    expect(
      parseSimulatorEnv({
        NODE_ENV: 'production',
        ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
        SIMULATOR_SECRET,
      }).SIMULATOR_SECRET,
    ).toBe(SIMULATOR_SECRET);
  });

  test('bad values are refused by name', () => {
    expect(() => parseSimulatorEnv({ SIMULATOR_SECRET: 'short' })).toThrow(/SIMULATOR_SECRET/);
    expect(() => parseSimulatorEnv({ BROKER_URL: 'nope' })).toThrow(/BROKER_URL/);
  });
});

describe('returning customers (RANKING_CUSTOMER_KEY, RANKING_CUSTOMER_RETENTION_DAYS)', () => {
  const production = { NODE_ENV: 'production', ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS, ONRAMP_API_KEY: PROD_KEY };

  test('outside production: the published development key and a retention of 365 days', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).returningCustomers).toEqual({
      key: DEFAULT_DEV_RANKING_CUSTOMER_KEY,
      retentionMs: 365 * 86_400_000,
    });
    expect(loadConfig({ NODE_ENV: 'development', RANKING_CUSTOMER_RETENTION_DAYS: '30' }).returningCustomers.retentionMs).toBe(
      30 * 86_400_000,
    );
  });

  test('production requires a key of its own, of at least 32 characters', () => {
    expect(configError(() => loadConfig(production)).problems).toEqual([
      expect.stringMatching(/^RANKING_CUSTOMER_KEY: required in production/),
    ]);
    expect(configError(() => loadConfig({ ...production, RANKING_CUSTOMER_KEY: 'x'.repeat(31) })).problems).toEqual([
      expect.stringMatching(/^RANKING_CUSTOMER_KEY: /),
    ]);
    expect(configError(() => loadConfig({ ...production, RANKING_CUSTOMER_KEY: DEFAULT_DEV_RANKING_CUSTOMER_KEY })).problems).toEqual([
      expect.stringMatching(/^RANKING_CUSTOMER_KEY: the development key, published/),
    ]);
    expect(loadConfig({ ...production, RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY }).returningCustomers.key).toBe(
      TEST_RANKING_CUSTOMER_KEY,
    );
  });

  test('the retention is a whole number of days from 1 to 3650', () => {
    for (const days of ['0', '3651', '1.5', 'a year']) {
      expect(configError(() => parseEnv({ RANKING_CUSTOMER_RETENTION_DAYS: days })).problems).toEqual([
        expect.stringMatching(/^RANKING_CUSTOMER_RETENTION_DAYS: /),
      ]);
    }
  });
});
