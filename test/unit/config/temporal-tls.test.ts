import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config';
import { createTestCa } from '../../helpers/pki';

let dir: string;
const files = { ca: '', cert: '', key: '', otherKey: '', encryptedKey: '', der: '', corrupt: '', missing: '' };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'temporal-tls-config-'));
  const ca = await createTestCa('Config test CA');
  const client = await ca.client('onramp-broker');
  const other = await ca.client('someone-else');
  const encrypted = generateKeyPairSync('ec', {
    namedCurve: 'P-256',
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const write = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const derOf = (pem: string) => Buffer.from(pem.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64');
  Object.assign(files, {
    ca: write('ca.pem', ca.cert),
    cert: write('client.pem', client.cert),
    key: write('client-key.pem', client.key),
    otherKey: write('other-key.pem', other.key),
    encryptedKey: write('encrypted-key.pem', encrypted.privateKey),
    der: write('ca.der', derOf(ca.cert)),
    corrupt: write('corrupt.pem', '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n'),
    missing: join(dir, 'no-such-file.pem'),
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('TLS to Temporal', () => {
  test('without any setting the connection is plain', () => {
    const { temporal } = loadConfig({});
    expect(temporal).not.toHaveProperty('tls');
    expect(temporal).not.toHaveProperty('apiKey');
  });

  test('CA, client certificate, key and server name are read into the connection settings', () => {
    const { temporal } = loadConfig({
      TEMPORAL_TLS_CA_FILE: files.ca,
      TEMPORAL_TLS_CERT_FILE: files.cert,
      TEMPORAL_TLS_KEY_FILE: files.key,
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    expect(temporal.tls).toEqual({
      serverRootCACertificate: readFileSync(files.ca),
      clientCertPair: { crt: readFileSync(files.cert), key: readFileSync(files.key) },
      serverNameOverride: 'temporal.internal',
    });
  });

  test('TEMPORAL_TLS=true alone is TLS with the system’s roots', () => {
    expect(loadConfig({ TEMPORAL_TLS: 'true' }).temporal.tls).toEqual({});
  });

  test('an API key (Temporal Cloud) implies TLS', () => {
    const { temporal } = loadConfig({ TEMPORAL_API_KEY: 'eyJhbGciOi.cloud-key' });
    expect(temporal).toMatchObject({ tls: {}, apiKey: 'eyJhbGciOi.cloud-key' });
  });

  test.each([
    {
      what: 'a certificate without its key',
      env: () => ({ TEMPORAL_TLS_CERT_FILE: files.cert }),
      problem: /^TEMPORAL_TLS_KEY_FILE: required with/,
    },
    {
      what: 'a key without its certificate',
      env: () => ({ TEMPORAL_TLS_KEY_FILE: files.key }),
      problem: /^TEMPORAL_TLS_CERT_FILE: required with/,
    },
    {
      what: 'a CA file that does not exist',
      env: () => ({ TEMPORAL_TLS_CA_FILE: files.missing }),
      problem: /^TEMPORAL_TLS_CA_FILE: cannot read .*no-such-file\.pem/,
    },
    {
      what: 'a CA in DER, not PEM',
      env: () => ({ TEMPORAL_TLS_CA_FILE: files.der }),
      problem: /^TEMPORAL_TLS_CA_FILE: .* holds no PEM certificate/,
    },
    {
      what: 'a PEM block that is no certificate',
      env: () => ({ TEMPORAL_TLS_CA_FILE: files.corrupt }),
      problem: /^TEMPORAL_TLS_CA_FILE: .* holds a certificate that does not parse/,
    },
    {
      what: 'a key file holding a certificate',
      env: () => ({ TEMPORAL_TLS_CERT_FILE: files.cert, TEMPORAL_TLS_KEY_FILE: files.cert }),
      problem: /^TEMPORAL_TLS_KEY_FILE: .* holds no unencrypted PEM private key/,
    },
    {
      what: 'an encrypted key',
      env: () => ({ TEMPORAL_TLS_CERT_FILE: files.cert, TEMPORAL_TLS_KEY_FILE: files.encryptedKey }),
      problem: /^TEMPORAL_TLS_KEY_FILE: .* holds no unencrypted PEM private key/,
    },
    {
      what: 'the key of another certificate',
      env: () => ({ TEMPORAL_TLS_CERT_FILE: files.cert, TEMPORAL_TLS_KEY_FILE: files.otherKey }),
      problem: /^TEMPORAL_TLS_KEY_FILE: .* is not the key of the certificate in TEMPORAL_TLS_CERT_FILE/,
    },
    {
      what: 'TLS settings with TEMPORAL_TLS=false',
      env: () => ({ TEMPORAL_TLS: 'false', TEMPORAL_TLS_CA_FILE: files.ca }),
      problem: /^TEMPORAL_TLS_CA_FILE: needs TLS, but TEMPORAL_TLS is false/,
    },
    {
      what: 'an API key with TEMPORAL_TLS=false',
      env: () => ({ TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: 'cloud-key' }),
      problem: /^TEMPORAL_API_KEY: needs TLS/,
    },
    { what: 'an API key with a space', env: () => ({ TEMPORAL_API_KEY: 'Bearer abc' }), problem: /^TEMPORAL_API_KEY: / },
    {
      what: 'a server name that is no host name',
      env: () => ({ TEMPORAL_TLS_SERVER_NAME: 'https://temporal' }),
      problem: /^TEMPORAL_TLS_SERVER_NAME: /,
    },
  ])('start-up refuses $what, naming the variable', ({ env, problem }) => {
    expect(problems(env())).toEqual([expect.stringMatching(problem)]);
  });

  test('every problem is reported at once', () => {
    expect(problems({ TEMPORAL_TLS_CA_FILE: files.missing, TEMPORAL_TLS_CERT_FILE: files.cert })).toEqual([
      expect.stringMatching(/^TEMPORAL_TLS_KEY_FILE: required/),
      expect.stringMatching(/^TEMPORAL_TLS_CA_FILE: cannot read/),
    ]);
  });
});
