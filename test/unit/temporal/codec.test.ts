import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { buildConfig, ConfigError, parseEnv } from '../../../src/config';
import { DEV_ENCRYPTION_KEYS } from '../../../src/config/encryption';
import { EncryptionCodec, EncryptionKeysSchema, searchableHashes } from '../../../src/temporal/codec';

const keyEntry = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const keys = (text: string) => EncryptionKeysSchema.parse(text);
const config = (env: NodeJS.ProcessEnv) =>
  buildConfig(parseEnv({ LOG_LEVEL: 'silent', ONRAMP_API_KEY: 'obk_live_0123456789abcdef', ...env }));

describe('EncryptionCodec', () => {
  const order = { wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', ip: '203.0.113.7' };

  test('encrypts whole payloads with the first key, naming it in the metadata; decodes them back', async () => {
    const codec = new EncryptionCodec(keys(`${keyEntry('k2')},${keyEntry('k1')}`));
    const [encoded] = await codec.encode([defaultPayloadConverter.toPayload(order)]);
    expect(Buffer.from(encoded!.metadata!.encoding!).toString()).toBe('binary/encrypted');
    expect(Buffer.from(encoded!.metadata!['encryption-key-id']!).toString()).toBe('k2');
    expect(Buffer.from(encoded!.data!).toString('latin1')).not.toContain(order.wallet_address);
    const [decoded] = await codec.decode([encoded!]);
    expect(defaultPayloadConverter.fromPayload(decoded!)).toEqual(order);
  });

  test('after rotation, data encrypted with the old key still decodes; the new key encrypts', async () => {
    const old = keyEntry('2025');
    const [before] = await new EncryptionCodec(keys(old)).encode([defaultPayloadConverter.toPayload(order)]);
    const rotated = new EncryptionCodec(keys(`${keyEntry('2026')},${old}`));
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([before!]))[0]!)).toEqual(order);
    const [after] = await rotated.encode([defaultPayloadConverter.toPayload(order)]);
    expect(Buffer.from(after!.metadata!['encryption-key-id']!).toString()).toBe('2026');
  });

  test('payloads recorded in clear pass through', async () => {
    const clear = defaultPayloadConverter.toPayload(order);
    expect(await new EncryptionCodec(keys(keyEntry('k'))).decode([clear])).toEqual([clear]);
  });

  test('an unknown key id, a relabelled key id or a changed byte does not decode', async () => {
    const a = keyEntry('a');
    const [encoded] = await new EncryptionCodec(keys(a)).encode([defaultPayloadConverter.toPayload(order)]);
    await expect(new EncryptionCodec(keys(keyEntry('b'))).decode([encoded!])).rejects.toThrow(/unknown key id "a"/);
    const relabelled = { ...encoded!, metadata: { ...encoded!.metadata, 'encryption-key-id': Buffer.from('b') } };
    const sameBytes = `b:${a.split(':')[1]}`;
    await expect(new EncryptionCodec(keys(`${a},${sameBytes}`)).decode([relabelled])).rejects.toThrow();
    const data = Buffer.from(encoded!.data!);
    data[20] = data[20]! ^ 1;
    await expect(new EncryptionCodec(keys(a)).decode([{ ...encoded!, data }])).rejects.toThrow();
  });

  test('the ExternalUserId hash is keyed: one value per key, not the id', () => {
    const [h1, h2] = searchableHashes(keys(`${keyEntry('x')},${keyEntry('y')}`), 'user-1');
    expect(h1).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(h1).not.toBe(h2);
  });
});

describe('encryption settings', () => {
  const problems = (env: NodeJS.ProcessEnv) => {
    try {
      config(env);
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
    return [];
  };

  test('keys of 32 bytes with unique ids; a bad entry stops start-up naming the variable', () => {
    expect(problems({ ENCRYPTION_KEYS: `k:${randomBytes(16).toString('base64')}` })).toEqual([
      expect.stringMatching(/^ENCRYPTION_KEYS: the key must be 32 bytes/),
    ]);
    expect(problems({ ENCRYPTION_KEYS: 'no-colon' })).toEqual([expect.stringMatching(/^ENCRYPTION_KEYS: expected <id>:<base64 key>/)]);
    expect(problems({ ENCRYPTION_KEYS: `${keyEntry('k')},${keyEntry('k')}` })).toEqual([
      expect.stringMatching(/^ENCRYPTION_KEYS: key ids must be unique/),
    ]);
  });

  test('keys from a file, after those of the environment', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'keys-')), 'keys');
    writeFileSync(file, `${keyEntry('old')}\n`);
    const { encryption } = config({ NODE_ENV: 'production', ENCRYPTION_KEYS: keyEntry('new'), ENCRYPTION_KEYS_FILE: file });
    expect(encryption.keys.map((k) => k.id)).toEqual(['new', 'old']);
    expect(problems({ ENCRYPTION_KEYS_FILE: join(file, 'missing') })).toEqual([
      expect.stringMatching(/^ENCRYPTION_KEYS_FILE: cannot read/),
    ]);
  });

  test('development uses the published development key and serves the codec endpoint to its Web UI; production refuses that key', () => {
    const dev = config({ NODE_ENV: 'development' }).encryption;
    expect(dev.keys.map((k) => k.id)).toEqual(['dev']);
    expect(dev.codecEndpoint).toEqual({ corsOrigins: ['http://localhost:8233', 'http://127.0.0.1:8233'] });
    expect(problems({ NODE_ENV: 'production', ENCRYPTION_KEYS: DEV_ENCRYPTION_KEYS })).toEqual([
      'ENCRYPTION_KEYS: the published development key is refused in production',
    ]);
  });

  test('production requires keys: customer data is never stored in clear there', () => {
    expect(problems({ NODE_ENV: 'production' })).toEqual([expect.stringMatching(/^ENCRYPTION_KEYS: required in production/)]);
    expect(config({ NODE_ENV: 'production', ENCRYPTION_KEYS: keyEntry('k') }).encryption.keys.map((k) => k.id)).toEqual(['k']);
  });

  test('elsewhere the codec endpoint is served only with a token', () => {
    const token = 'codec-token-0123456789abcdef0123456789';
    expect(config({ NODE_ENV: 'production', ENCRYPTION_KEYS: keyEntry('k') }).encryption.codecEndpoint).toBeUndefined();
    expect(config({ NODE_ENV: 'production', ENCRYPTION_KEYS: keyEntry('k'), CODEC_AUTH_TOKEN: token }).encryption.codecEndpoint).toEqual({
      token,
      corsOrigins: [],
    });
    expect(config({ NODE_ENV: 'test' }).encryption).toEqual({ keys: [] });
  });
});
