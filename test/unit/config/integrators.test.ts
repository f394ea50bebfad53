import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../../src/config/env';
import { IntegratorDirectory, IntegratorSchema, readIntegratorsFile, sha256Hex, type Integrator } from '../../../src/config/integrators';

const ACME_KEY_OLD = 'acme-key-old-0123456789';
const ACME_KEY_NEW = 'acme-key-new-9876543210';
const GLOBEX_KEY = 'globex-key-abcdefghijkl';

const ACME: Integrator = {
  id: 'acme',
  name: 'Acme Wallet',
  api_key_sha256: [sha256Hex(ACME_KEY_OLD), sha256Hex(ACME_KEY_NEW)],
  webhook_url: 'https://acme.example.com/hooks',
  webhook_secret: 'whsec_' + 'A'.repeat(43) + '=',
};
const GLOBEX: Integrator = { id: 'globex', name: 'Globex', api_key_sha256: [sha256Hex(GLOBEX_KEY)] };

describe('sha256Hex', () => {
  test('is the lowercase hex SHA-256 of the UTF-8 string', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('é')).toBe(createHash('sha256').update(Buffer.from('c3a9', 'hex')).digest('hex'));
  });
});

describe('IntegratorDirectory', () => {
  const directory = new IntegratorDirectory([ACME, GLOBEX]);

  test.each<[string, string]>([
    [ACME_KEY_OLD, 'acme'],
    [ACME_KEY_NEW, 'acme'],
    [GLOBEX_KEY, 'globex'],
  ])('key %s authenticates %s', (key, id) => {
    expect(directory.authenticate(key)?.id).toBe(id);
  });

  test('returns the integrator object itself', () => {
    expect(directory.authenticate(ACME_KEY_NEW)).toBe(ACME);
    expect(directory.authenticate(GLOBEX_KEY)).toBe(GLOBEX);
  });

  test.each<[string, string]>([
    ['an unknown key', 'not-a-key-at-all-000000'],
    ['the empty string', ''],
    ['a key with a trailing space', `${ACME_KEY_OLD} `],
    ['a key in other case', ACME_KEY_OLD.toUpperCase()],
    ['a prefix of a key', ACME_KEY_OLD.slice(0, -1)],
    ['the stored digest itself', sha256Hex(ACME_KEY_OLD)],
  ])('refuses %s', (_label, key) => {
    expect(directory.authenticate(key)).toBeUndefined();
  });

  test('an empty directory authenticates nobody', () => {
    expect(new IntegratorDirectory([]).authenticate(ACME_KEY_OLD)).toBeUndefined();
  });

  test('byId finds integrators by id only', () => {
    expect(directory.byId('acme')).toBe(ACME);
    expect(directory.byId('globex')).toBe(GLOBEX);
    expect(directory.byId('ACME')).toBeUndefined();
    expect(directory.byId('')).toBeUndefined();
  });

  test('exposes the integrators it was given', () => {
    expect(directory.integrators).toEqual([ACME, GLOBEX]);
  });
});

describe('IntegratorSchema', () => {
  test('accepts a full entry and a minimal one', () => {
    expect(IntegratorSchema.safeParse(ACME).success).toBe(true);
    expect(IntegratorSchema.safeParse(GLOBEX).success).toBe(true);
  });

  test.each<[string, unknown]>([
    ['an uppercase id', { ...GLOBEX, id: 'Globex' }],
    ['an id starting with a dash', { ...GLOBEX, id: '-globex' }],
    ['an id of 64 characters', { ...GLOBEX, id: 'a'.repeat(64) }],
    ['an empty name', { ...GLOBEX, name: '' }],
    ['no key digests', { ...GLOBEX, api_key_sha256: [] }],
    ['an uppercase digest', { ...GLOBEX, api_key_sha256: [sha256Hex('x').toUpperCase()] }],
    ['a short digest', { ...GLOBEX, api_key_sha256: ['abc123'] }],
    ['a plain key instead of a digest', { ...GLOBEX, api_key_sha256: [GLOBEX_KEY] }],
    ['a bad webhook_url', { ...GLOBEX, webhook_url: 'hooks' }],
    ['a webhook_secret without whsec_', { ...GLOBEX, webhook_secret: 'A'.repeat(40) }],
  ])('refuses %s', (_label, entry) => {
    expect(IntegratorSchema.safeParse(entry).success).toBe(false);
  });
});

describe('readIntegratorsFile', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'onramp-integrators-'));
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function write(name: string, content: string): string {
    const path = join(dir, name);
    writeFileSync(path, content, 'utf8');
    return path;
  }

  function readError(path: string): ConfigError {
    try {
      readIntegratorsFile(path);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return err as ConfigError;
    }
    throw new Error('expected a ConfigError');
  }

  test('reads a valid file', () => {
    const path = write('good.json', JSON.stringify({ integrators: [ACME, GLOBEX] }));
    const integrators = readIntegratorsFile(path);
    expect(integrators).toEqual([ACME, GLOBEX]);
    const directory = new IntegratorDirectory(integrators);
    expect(directory.authenticate(ACME_KEY_NEW)?.id).toBe('acme');
    expect(directory.authenticate(GLOBEX_KEY)?.id).toBe('globex');
  });

  test('refuses a missing file', () => {
    const path = join(dir, 'missing.json');
    const err = readError(path);
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toContain('ONRAMP_INTEGRATORS_FILE: cannot read');
    expect(err.problems[0]).toContain(path);
  });

  test('refuses invalid JSON', () => {
    const path = write('bad.json', '{ "integrators": [ ');
    const err = readError(path);
    expect(err.problems[0]).toContain('ONRAMP_INTEGRATORS_FILE: cannot read');
    expect(err.problems[0]).toContain(path);
  });

  test('refuses duplicate ids', () => {
    const path = write('dupes.json', JSON.stringify({ integrators: [ACME, { ...GLOBEX, id: 'acme' }] }));
    const err = readError(path);
    expect(err.problems[0]).toContain(`ONRAMP_INTEGRATORS_FILE: ${path} is invalid`);
    expect(err.problems[0]).toContain('integrator ids must be unique');
  });

  test('refuses a non-hex digest', () => {
    const path = write('nonhex.json', JSON.stringify({ integrators: [{ ...GLOBEX, api_key_sha256: ['z'.repeat(64)] }] }));
    const err = readError(path);
    expect(err.problems[0]).toContain(`${path} is invalid`);
    expect(err.problems[0]).toContain('integrators.0.api_key_sha256.0');
    expect(err.problems[0]).toContain('a lowercase hex SHA-256 digest');
  });

  test.each<[string, string]>([
    ['an empty list', JSON.stringify({ integrators: [] })],
    ['no integrators key', JSON.stringify({})],
    ['a JSON array', JSON.stringify([ACME])],
    ['JSON null', 'null'],
  ])('refuses %s', (label, content) => {
    const path = write(`${label.replace(/\W+/g, '-')}.json`, content);
    expect(readError(path).problems[0]).toContain(`${path} is invalid`);
  });
});
