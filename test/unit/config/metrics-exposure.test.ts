/**
 * A metrics port bound to a non-loopback METRICS_HOST without METRICS_TOKEN in production starts
 * (docker-compose does it on its private network) but is warned about at start.
 */
import { loadConfig, openMetricsWarnings } from '../../../src/config';
import { TEST_ENCRYPTION_KEYS, TEST_RANKING_CUSTOMER_KEY } from '../../helpers/config';

const PROD = {
  NODE_ENV: 'production',
  ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
  RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
  ONRAMP_API_KEY: 'prod-key-0123456789abcdef',
};
const TOKEN = 'metrics-token-0123456789';

test('production, 0.0.0.0, a metrics port and no token: a warning for that port, naming the host and the variables', () => {
  const config = loadConfig({ ...PROD, METRICS_HOST: '0.0.0.0', API_METRICS_PORT: '9464', WORKER_METRICS_PORT: '9465' });
  expect(openMetricsWarnings(config, 'api')).toEqual([
    expect.stringMatching(/API_METRICS_PORT 9464 on METRICS_HOST 0\.0\.0\.0 without METRICS_TOKEN/),
  ]);
  expect(openMetricsWarnings(config, 'worker')).toEqual([
    expect.stringMatching(/WORKER_METRICS_PORT 9465 on METRICS_HOST 0\.0\.0\.0 without METRICS_TOKEN/),
  ]);
});

test('a public address or a hostname warns too', () => {
  for (const host of ['10.0.0.5', '::', 'metrics.internal'])
    expect(openMetricsWarnings(loadConfig({ ...PROD, METRICS_HOST: host, WORKER_METRICS_PORT: '9465' }), 'worker')).toHaveLength(1);
});

test('no warning with a token, on loopback, without the port, or outside production', () => {
  const quiet = [
    { ...PROD, METRICS_HOST: '0.0.0.0', API_METRICS_PORT: '9464', WORKER_METRICS_PORT: '9465', METRICS_TOKEN: TOKEN },
    { ...PROD, API_METRICS_PORT: '9464', WORKER_METRICS_PORT: '9465' },
    { ...PROD, METRICS_HOST: '127.0.0.2', API_METRICS_PORT: '9464', WORKER_METRICS_PORT: '9465' },
    { ...PROD, METRICS_HOST: '::1', API_METRICS_PORT: '9464', WORKER_METRICS_PORT: '9465' },
    { ...PROD, METRICS_HOST: 'localhost', API_METRICS_PORT: '9464', WORKER_METRICS_PORT: '9465' },
    { ...PROD, METRICS_HOST: '0.0.0.0' },
    { ...PROD, METRICS_HOST: '0.0.0.0', API_METRICS_PORT: '9464', WORKER_METRICS_PORT: '9465', METRICS_ENABLED: 'false' },
    {
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      METRICS_HOST: '0.0.0.0',
      API_METRICS_PORT: '9464',
      WORKER_METRICS_PORT: '9465',
    },
  ];
  for (const env of quiet) {
    const config = loadConfig(env);
    expect([...openMetricsWarnings(config, 'api'), ...openMetricsWarnings(config, 'worker')]).toEqual([]);
  }
});
