import { Webhook } from 'standardwebhooks';
import { buildConfig, ConfigError, parseEnv } from '../../../src/config';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../../src/config/env';
import { orderWebhookBody } from '../../../src/webhooks/event';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS, MAX_RETRY_AFTER_MS, nextRetryDelayMs, parseRetryAfter } from '../../../src/webhooks/retry';
import { signStandardWebhook, webhookSecretKey } from '../../../src/webhooks/signature';
import { checkWebhookUrl, isPublicAddress, WebhookUrlRefusedError } from '../../../src/webhooks/ssrf';
import { integratorWebhookId, type IntegratorNotification } from '../../../src/temporal/order-contract';
import { TEST_ENCRYPTION_KEYS, TEST_RANKING_CUSTOMER_KEY } from '../../helpers/config';

const SECRET = DEFAULT_DEV_WEBHOOK_SECRET;
const NOW = 1_790_000_000;

describe('Standard Webhooks signature', () => {
  const body = '{"type":"order.status_changed","data":{"id":"x"}}';

  test('the standardwebhooks package verifies what the broker signs', () => {
    const headers = signStandardWebhook(SECRET, 'evt_1', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(SECRET).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  test('it refuses a tampered body, another id, another secret and a stale timestamp', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = { ...signStandardWebhook(SECRET, 'evt_1', now, body) };
    const verifier = new Webhook(SECRET);
    expect(() => verifier.verify(body.replace('"x"', '"y"'), headers)).toThrow();
    expect(() => verifier.verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow();
    expect(() =>
      new Webhook('whsec_' + Buffer.from('another-secret-of-32-bytes-long!').toString('base64')).verify(body, headers),
    ).toThrow();
    const stale = { ...signStandardWebhook(SECRET, 'evt_1', now - 600, body) };
    expect(() => verifier.verify(body, stale)).toThrow();
  });

  test('the signature is v1, base64 HMAC-SHA256 of id.timestamp.body with the decoded key', () => {
    const headers = signStandardWebhook(SECRET, 'evt_1', NOW, body);
    expect(headers['webhook-timestamp']).toBe(String(NOW));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(webhookSecretKey(SECRET).toString('utf8')).toBe('dev-only-webhook-secret-32bytes!');
    expect(() => webhookSecretKey('not-a-whsec')).toThrow();
  });
});

describe('order webhook body', () => {
  const notification: IntegratorNotification = {
    webhookId: integratorWebhookId('6f1c0d7e-0000-5000-8000-000000000001', 3),
    integratorId: 'dev',
    occurredAt: '2026-11-22T10:00:00.000Z',
    sequence: 3,
    order: { id: '6f1c0d7e-0000-5000-8000-000000000001', status: 'processing' } as IntegratorNotification['order'],
  };

  test('type, timestamp and the order with its sequence', () => {
    expect(JSON.parse(orderWebhookBody(notification))).toEqual({
      type: 'order.status_changed',
      timestamp: '2026-11-22T10:00:00.000Z',
      data: { id: notification.order.id, status: 'processing', sequence: 3 },
    });
  });

  test('the same bytes every time, and an id unique per order and sequence', () => {
    expect(orderWebhookBody(notification)).toBe(orderWebhookBody(structuredClone(notification)));
    expect(notification.webhookId).toBe('evt_6f1c0d7e-0000-5000-8000-000000000001_3');
    expect(integratorWebhookId(notification.order.id, 4)).not.toBe(notification.webhookId);
  });
});

describe('retry schedule', () => {
  test('the documented schedule (docs/decisions.md): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h (about three days)', () => {
    expect(DEFAULT_WEBHOOK_RETRY_DELAYS_MS.map((ms) => ms / 1000)).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    const total = DEFAULT_WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 86_400_000).toBeCloseTo(3.1, 1);
  });

  test.each([
    [1, undefined, 5_000],
    [2, undefined, 300_000],
    [9, undefined, 86_400_000],
    [10, undefined, undefined],
    [1, 120_000, 120_000],
    [3, 0, 0],
    [2, 10 * MAX_RETRY_AFTER_MS, MAX_RETRY_AFTER_MS],
    [10, 1_000, undefined],
  ])('after attempt %d with Retry-After %p ms: wait %p ms', (attempt, retryAfter, expected) => {
    expect(nextRetryDelayMs(attempt, DEFAULT_WEBHOOK_RETRY_DELAYS_MS, retryAfter)).toBe(expected);
  });

  test.each([
    ['120', 120_000],
    [' 7 ', 7_000],
    [new Date(NOW * 1000 + 30_000).toUTCString(), 30_000],
    [new Date(NOW * 1000 - 30_000).toUTCString(), 0],
    ['soon', undefined],
    ['-5', undefined],
    [undefined, undefined],
  ])('Retry-After %p is %p ms', (value, expected) => {
    expect(parseRetryAfter(value, NOW * 1000)).toBe(expected);
  });
});

describe('SSRF guard', () => {
  test.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '192.0.2.10',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'fc00::2',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    'ff02::1',
    '2001:db8::1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  test('not an address at all is not public', () => {
    expect(isPublicAddress('example.com')).toBe(false);
  });

  test.each([
    ['http://127.0.0.1:8080/hooks', 'is not a public address'],
    ['http://[::1]/hooks', 'is not a public address'],
    ['http://localhost/hooks', 'loopback name'],
    ['http://api.localhost/hooks', 'loopback name'],
    ['http://169.254.169.254/latest/meta-data', 'is not a public address'],
    ['ftp://example.com/hooks', 'scheme'],
    ['https://user:pw@example.com/hooks', 'credentials'],
    ['not a url', 'not a URL'],
  ])('%s is refused (%s)', (url, reason) => {
    expect(() => checkWebhookUrl(url, false)).toThrow(WebhookUrlRefusedError);
    expect(() => checkWebhookUrl(url, false)).toThrow(reason);
  });

  test('public URLs pass; private ones pass only when allowed', () => {
    expect(checkWebhookUrl('https://hooks.example.com/onramp', false).hostname).toBe('hooks.example.com');
    expect(checkWebhookUrl('http://127.0.0.1:8080/hooks', true).port).toBe('8080');
    expect(() => checkWebhookUrl('ftp://127.0.0.1/', true)).toThrow('scheme');
  });
});

describe('webhook configuration', () => {
  const production = {
    NODE_ENV: 'production',
    ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
    ONRAMP_API_KEY: 'obk_live_0123456789abcdef',
    // Private: production refuses the development secret (test/security/published-credentials.test.ts).
    ONRAMP_WEBHOOK_SECRET: 'whsec_cHJpdmF0ZS10by10aGlzLXRlc3Qtd2ViaG9vay1zZWNyZXQ=',
  };

  test('production refuses a private webhook URL at start-up unless allowed', () => {
    const env = { ...production, ONRAMP_WEBHOOK_URL: 'http://10.0.0.5/hooks' };
    expect(() => buildConfig(parseEnv(env))).toThrow(ConfigError);
    expect(() => buildConfig(parseEnv(env))).toThrow(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
    const allowed = buildConfig(parseEnv({ ...env, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }));
    expect(allowed.webhooks.allowPrivateNetworks).toBe(true);
  });

  test('a webhook URL needs a secret', () => {
    const env = {
      NODE_ENV: 'production',
      ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
      ONRAMP_API_KEY: 'obk_live_0123456789abcdef',
      ONRAMP_WEBHOOK_URL: 'https://hooks.example.com/x',
    };
    expect(() => buildConfig(parseEnv(env))).toThrow(/needs a webhook_secret/);
  });

  test('development allows private receivers; production does not by default', () => {
    expect(buildConfig(parseEnv({})).webhooks.allowPrivateNetworks).toBe(true);
    const config = buildConfig(parseEnv({ ...production, ONRAMP_WEBHOOK_URL: 'https://hooks.example.com/x' }));
    expect(config.webhooks).toEqual({ allowPrivateNetworks: false, timeoutMs: 10_000 });
  });

  test('the retry schedule and timeout come from the environment', () => {
    const config = buildConfig(parseEnv({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '1, 2.5,60', WEBHOOK_TIMEOUT_SECONDS: '3' }));
    expect(config.orderTimings.webhookRetryDelaysMs).toEqual([1000, 2500, 60_000]);
    expect(config.orderTimings.webhookAttemptTimeoutMs).toBe(8000);
    expect(() => parseEnv({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,soon' })).toThrow('WEBHOOK_RETRY_SCHEDULE_SECONDS');
    expect(() => parseEnv({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'maybe' })).toThrow('WEBHOOK_ALLOW_PRIVATE_NETWORKS');
  });
});
