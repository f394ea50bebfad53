/**
 * Production refuses every value this repository publishes (issue 30, item 3): the development API
 * key and webhook secret, the demo integrator of deploy/integrators.example.json outside a demo, any
 * simulator credential given to a live provider (Ramp's webhook URL secret or signing key); and
 * TRUST_PROXY refuses ranges that would believe almost any sender's X-Forwarded-For. Each refusal
 * stops start-up (loadConfig, which the API and the worker run first) naming the variable or entry.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { DEFAULT_DEV_API_KEY, DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { sha256Hex } from '../../src/config/integrators';
import { DEMO_INTEGRATOR_WEBHOOK_SECRET } from '../../src/config/published-values';
import { MOONPAY_SIMULATOR_CREDENTIALS } from '../../src/providers/moonpay/config';
import { DEV_PAYBIS_WEBHOOK_PRIVATE_KEY, DEV_PAYBIS_WEBHOOK_PUBLIC_KEY } from '../../src/providers/paybis/development-keys';
import { RAMP_SIMULATOR_CREDENTIALS, RAMP_SIMULATOR_WEBHOOK_URL_SECRET } from '../../src/providers/ramp/config';
import { TEST_ENCRYPTION_KEYS, TEST_RANKING_CUSTOMER_KEY } from '../helpers/config';

const EXAMPLE_INTEGRATORS = resolve(__dirname, '..', '..', 'deploy', 'integrators.example.json');
/** The demo key docs/operations.md prints for the compose stack. */
const DEMO_API_KEY = 'obk_live_demo_3cad321183cdeeddebabd2518ba7d612';
const PRIVATE_KEY = `obk_live_${randomBytes(16).toString('hex')}`;
const PRODUCTION = {
  NODE_ENV: 'production',
  ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
  RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
  LOG_LEVEL: 'silent',
  ONRAMP_API_KEY: PRIVATE_KEY,
};
const DEMO = {
  ...PRODUCTION,
  SANDBOX_URL: 'http://127.0.0.1:4010',
  SANDBOX_IN_PRODUCTION: 'true',
  SIMULATOR_SECRET: randomBytes(32).toString('hex'),
};
const livePaybisKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const LIVE_PAYBIS = {
  PAYBIS_API_KEY: 'paybis-live-api-key',
  PAYBIS_PRIVATE_KEY: livePaybisKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  PAYBIS_WEBHOOK_PUBLIC_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
    type: 'spki',
    format: 'pem',
  }) as string,
};
const LIVE_RAMP = { RAMP_HOST_API_KEY: 'ramp-live-host-key', RAMP_WEBHOOK_URL_SECRET: randomBytes(24).toString('hex') };

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const keyBytes = (secret: string) => Buffer.from(secret.slice('whsec_'.length), 'base64').toString('hex');

/**
 * Other spellings of a padded `whsec_` secret that decode to the same key, the one webhooks are
 * signed with: without its padding, with the unused low bits of its last character set, and with
 * characters after the padding (where decoding stops).
 */
function sameKeySpellings(secret: string): string[] {
  const unpadded = secret.replace(/=+$/, '');
  const last = BASE64.indexOf(unpadded.at(-1)!);
  const otherBits = `${unpadded.slice(0, -1)}${BASE64.charAt(last | 1)}${secret.slice(unpadded.length)}`;
  const spellings = [unpadded, otherBits, `${secret}AAAA`];
  for (const spelling of spellings) {
    expect(spelling).not.toBe(secret);
    expect(keyBytes(spelling)).toBe(keyBytes(secret));
  }
  return spellings;
}

function integratorsFile(integrator: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), 'integrators-')), 'integrators.json');
  writeFileSync(path, JSON.stringify({ integrators: [{ id: 'acme', name: 'Acme', ...integrator }] }));
  return path;
}

test('the development API key and webhook secret, and the demo key, are refused in production, naming the variable', () => {
  expect(problems({ ...PRODUCTION, ONRAMP_API_KEY: DEFAULT_DEV_API_KEY })).toEqual([
    expect.stringMatching(/^ONRAMP_API_KEY: a key published/),
  ]);
  expect(problems({ ...PRODUCTION, ONRAMP_API_KEY: DEMO_API_KEY })).toEqual([expect.stringMatching(/^ONRAMP_API_KEY: a key published/)]);
  expect(problems({ ...PRODUCTION, ONRAMP_WEBHOOK_SECRET: DEFAULT_DEV_WEBHOOK_SECRET })).toEqual([
    expect.stringMatching(/^ONRAMP_WEBHOOK_SECRET: a secret published/),
  ]);
  expect(problems(PRODUCTION)).toEqual([]);
  // Development keeps its published defaults.
  expect(problems({ NODE_ENV: 'development', LOG_LEVEL: 'silent' })).toEqual([]);
});

test('the demo integrators file runs in production only as a demo: simulated providers, none live', () => {
  const file = { ONRAMP_INTEGRATORS_FILE: EXAMPLE_INTEGRATORS, ONRAMP_API_KEY: undefined };
  expect(problems({ ...PRODUCTION, ...file })).toEqual([
    expect.stringMatching(
      /^ONRAMP_INTEGRATORS_FILE: integrator demo: api_key_sha256 holds the demo key of deploy\/integrators.example.json/,
    ),
    expect.stringMatching(/^ONRAMP_INTEGRATORS_FILE: integrator demo: webhook_secret is the demo secret/),
  ]);
  expect(problems({ ...DEMO, ...file })).toEqual([]);
  expect(problems({ ...DEMO, ...file, ...LIVE_RAMP })).toEqual([
    expect.stringMatching(/^ONRAMP_INTEGRATORS_FILE: integrator demo: api_key_sha256/),
    expect.stringMatching(/^ONRAMP_INTEGRATORS_FILE: integrator demo: webhook_secret/),
  ]);
});

test('an integrators file with the development key or webhook secret is refused in production, even in a demo', () => {
  const path = integratorsFile({ api_key_sha256: [sha256Hex(DEFAULT_DEV_API_KEY)], webhook_secret: DEFAULT_DEV_WEBHOOK_SECRET });
  const expected = [
    expect.stringMatching(/^ONRAMP_INTEGRATORS_FILE: integrator acme: api_key_sha256 holds the digest of the development API key/),
    expect.stringMatching(/^ONRAMP_INTEGRATORS_FILE: integrator acme: webhook_secret is the development webhook secret/),
  ];
  expect(problems({ ...PRODUCTION, ONRAMP_INTEGRATORS_FILE: path })).toEqual(expected);
  expect(problems({ ...DEMO, ONRAMP_INTEGRATORS_FILE: path })).toEqual(expected);
});

test("a live provider given a simulator's published credential is refused, naming the variable", () => {
  expect(problems({ ...PRODUCTION, ...LIVE_RAMP, RAMP_WEBHOOK_URL_SECRET: RAMP_SIMULATOR_WEBHOOK_URL_SECRET })).toEqual([
    expect.stringMatching(/^RAMP_WEBHOOK_URL_SECRET: a simulator's development credential/),
  ]);
  // Its webhook signing key, whose private half the simulator holds, written on one line as environments do.
  const oneLine = RAMP_SIMULATOR_CREDENTIALS.webhookPublicKey.trim().replaceAll('\n', '\\n');
  expect(problems({ ...PRODUCTION, ...LIVE_RAMP, RAMP_WEBHOOK_PUBLIC_KEY: oneLine })).toEqual([
    expect.stringMatching(/^RAMP_WEBHOOK_PUBLIC_KEY: a simulator's development credential/),
  ]);
  expect(
    problems({
      ...PRODUCTION,
      MOONPAY_PUBLISHABLE_KEY: 'pk_live_acme',
      MOONPAY_SECRET_KEY: 'sk_live_acme',
      MOONPAY_WEBHOOK_KEY: MOONPAY_SIMULATOR_CREDENTIALS.webhookKey,
    }),
  ).toEqual([expect.stringMatching(/^MOONPAY_WEBHOOK_KEY: a simulator's development credential/)]);
  expect(problems({ ...PRODUCTION, ...LIVE_RAMP })).toEqual([]);
});

test("a simulator's published key is refused however it is written: other line breaks, PKCS#1, its private half", () => {
  const published = createPublicKey(DEV_PAYBIS_WEBHOOK_PUBLIC_KEY);
  const spellings = {
    crlf: DEV_PAYBIS_WEBHOOK_PUBLIC_KEY.trim().replaceAll('\n', '\r\n'),
    rewrapped: DEV_PAYBIS_WEBHOOK_PUBLIC_KEY.trim()
      .split('\n')
      .map((line) => (line.startsWith('-----') ? `${line}\n` : line))
      .join('')
      .replace(
        /(-----\n)([^-]+)(-----END)/,
        (_all, head: string, body: string, tail: string) => `${head}${body.match(/.{1,40}/g)!.join('\n')}\n${tail}`,
      ),
    pkcs1: published.export({ type: 'pkcs1', format: 'pem' }) as string,
  };
  for (const [how, key] of Object.entries(spellings)) {
    expect(createPublicKey(key).export({ type: 'spki', format: 'der' })).toEqual(published.export({ type: 'spki', format: 'der' }));
    expect({ how, problems: problems({ ...PRODUCTION, ...LIVE_PAYBIS, PAYBIS_WEBHOOK_PUBLIC_KEY: key }) }).toEqual({
      how,
      problems: [expect.stringMatching(/^PAYBIS_WEBHOOK_PUBLIC_KEY: a simulator's development credential/)],
    });
  }
  // A private key whose public half is published signs what the published key verifies.
  const pkcs1Private = createPrivateKey(DEV_PAYBIS_WEBHOOK_PRIVATE_KEY).export({ type: 'pkcs1', format: 'pem' }) as string;
  expect(problems({ ...PRODUCTION, ...LIVE_PAYBIS, PAYBIS_PRIVATE_KEY: pkcs1Private })).toEqual([
    expect.stringMatching(/^PAYBIS_PRIVATE_KEY: a simulator's development credential/),
  ]);
  expect(problems({ ...PRODUCTION, ...LIVE_PAYBIS })).toEqual([]);
});

test('the demo values the broker refuses are those of deploy/integrators.example.json and docs/operations.md', async () => {
  const { DEMO_INTEGRATOR_API_KEY_SHA256, DEMO_INTEGRATOR_WEBHOOK_SECRET } = await import('../../src/config/published-values');
  const example = JSON.parse(readFileSync(EXAMPLE_INTEGRATORS, 'utf8')) as {
    integrators: { api_key_sha256: string[]; webhook_secret: string }[];
  };
  expect(example.integrators[0]!.api_key_sha256).toEqual([DEMO_INTEGRATOR_API_KEY_SHA256]);
  expect(example.integrators[0]!.webhook_secret).toBe(DEMO_INTEGRATOR_WEBHOOK_SECRET);
  expect(sha256Hex(DEMO_API_KEY)).toBe(DEMO_INTEGRATOR_API_KEY_SHA256);
  expect(readFileSync(resolve(__dirname, '..', '..', 'docs', 'operations.md'), 'utf8')).toContain(DEMO_API_KEY);
});

test.each([
  [
    'development',
    DEFAULT_DEV_WEBHOOK_SECRET,
    /^ONRAMP_INTEGRATORS_FILE: integrator acme: webhook_secret is the development webhook secret/,
  ],
  ['demo', DEMO_INTEGRATOR_WEBHOOK_SECRET, /^ONRAMP_INTEGRATORS_FILE: integrator acme: webhook_secret is the demo secret/],
])('the %s webhook secret spelt otherwise is the same key, and refused as it is', (_name, published, inFile) => {
  for (const spelling of sameKeySpellings(published)) {
    expect(problems({ ...PRODUCTION, ONRAMP_WEBHOOK_SECRET: spelling })).toEqual([
      expect.stringMatching(/^ONRAMP_WEBHOOK_SECRET: a secret published/),
    ]);
    const path = integratorsFile({ api_key_sha256: [sha256Hex(PRIVATE_KEY)], webhook_secret: spelling });
    expect(problems({ ...PRODUCTION, ONRAMP_API_KEY: undefined, ONRAMP_INTEGRATORS_FILE: path })).toEqual([expect.stringMatching(inFile)]);
  }
  // A private secret is not refused.
  expect(problems({ ...PRODUCTION, ONRAMP_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}` })).toEqual([]);
});

describe('TRUST_PROXY', () => {
  test.each([
    '0.0.0.0/0',
    '1.0.0.0/7',
    '::/0',
    '2001:db8::/31',
    '::ffff:0.0.0.0/96',
    '::ffff:10.0.0.0/103',
    'fd00::/8',
    // IPv4-mapped ranges spelt otherwise, which Express reads as 0.0.0.0/0.
    '0:0:0:0:0:ffff:0.0.0.0/96',
    '0::ffff:0:0/96',
    '::0:ffff:0.0.0.0/96',
  ])('%s believes almost any sender: refused, naming the variable', (range) => {
    expect(problems({ NODE_ENV: 'test', LOG_LEVEL: 'silent', TRUST_PROXY: `10.0.0.1,${range}` })).toEqual([
      expect.stringMatching(/^TRUST_PROXY\.1: .* is wider than \/8 \(IPv4\) or \/32 \(IPv6\)/),
    ]);
  });

  test('a /8 of IPv4, a /32 of IPv6, an IPv4-mapped /104 and the named private ranges are accepted', () => {
    const ranges = ['10.0.0.0/8', '2001:db8::/32', '::ffff:10.0.0.0/104', 'uniquelocal', 'loopback'];
    expect(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', TRUST_PROXY: ranges.join(',') }).trustProxy).toEqual(ranges);
  });
});
