import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPayloadConverter, ValueError } from '@temporalio/common';
import {
  decodeOptionalFailureToOptionalError,
  encodeErrorToFailure,
  loadDataConverter,
} from '@temporalio/common/lib/internal-non-workflow';
import { temporal } from '@temporalio/proto';
import { buildConfig, ConfigError, parseEnv } from '../../../src/config';
import { DEV_ENCRYPTION_KEYS } from '../../../src/config/encryption';
import { encryptingDataConverter, EncryptionCodec, EncryptionKeysSchema, searchableHashes } from '../../../src/temporal/codec';
import { TEST_RANKING_CUSTOMER_KEY } from '../../helpers/config';

const keyEntry = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const keys = (text: string) => EncryptionKeysSchema.parse(text);
const workflow = (workflowId: string) => ({ type: 'workflow' as const, namespace: 'default', workflowId });
const config = (env: NodeJS.ProcessEnv) =>
  buildConfig(
    parseEnv({ LOG_LEVEL: 'silent', ONRAMP_API_KEY: 'obk_live_0123456789abcdef', RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY, ...env }),
  );

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

  test('a payload in clear is refused; ENCRYPTION_ACCEPT_CLEAR_UNTIL lets it through until its date; the codec endpoint always', async () => {
    const clear = defaultPayloadConverter.toPayload(order);
    const k = keys(keyEntry('k'));
    await expect(new EncryptionCodec(k).decode([clear], workflow('order-1'))).rejects.toThrow(/a payload in clear is refused/);
    await expect(new EncryptionCodec(k).decode([clear])).rejects.toThrow(/a payload in clear is refused/);
    let now = Date.parse('2026-03-01T00:00:00Z');
    const migrating = new EncryptionCodec(k, { acceptClearUntil: new Date('2026-03-02T00:00:00Z'), now: () => now });
    expect(await migrating.decode([clear], workflow('order-1'))).toEqual([clear]);
    now = Date.parse('2026-03-02T00:00:00Z');
    await expect(migrating.decode([clear], workflow('order-1'))).rejects.toThrow(/a payload in clear is refused/);
    expect(await new EncryptionCodec(k, { acceptClear: true }).decode([clear])).toEqual([clear]);
  });

  test('each ciphertext is bound to its workflow: another workflow, or none, is refused where the SDK names one', async () => {
    const codec = new EncryptionCodec(keys(keyEntry('k')));
    const [bound] = await codec.encode([defaultPayloadConverter.toPayload(order)], workflow('order-x'));
    expect(Buffer.from(bound!.metadata!['encryption-workflow-id']!).toString()).toBe('order-x');
    expect(defaultPayloadConverter.fromPayload((await codec.decode([bound!], workflow('order-x')))[0]!)).toEqual(order);
    // An activity of that workflow, and a reader that names no workflow (the codec endpoint), read it too.
    expect(await codec.decode([bound!], { type: 'activity', namespace: 'default', workflowId: 'order-x', isLocal: false })).toHaveLength(1);
    expect(await codec.decode([bound!])).toHaveLength(1);
    await expect(codec.decode([bound!], workflow('order-y'))).rejects.toThrow(
      /encrypted for another workflow is refused for workflow order-y/,
    );
    // Relabelling the metadata does not help: the workflow id is authenticated.
    // Every refusal is the SDK's ValueError, which the API answers as an unreadable order (never a 500).
    const relabelled = { ...bound!, metadata: { ...bound!.metadata, 'encryption-workflow-id': Buffer.from('order-y') } };
    await expect(codec.decode([relabelled], workflow('order-y'))).rejects.toThrow(ValueError);
    const stripped = { ...bound!, metadata: { ...bound!.metadata } };
    delete stripped.metadata['encryption-workflow-id'];
    await expect(codec.decode([stripped])).rejects.toThrow(/does not decrypt under key id "k"/);
    // The same id naming another key (a key set that differs from the writer's) is refused alike.
    await expect(new EncryptionCodec(keys(keyEntry('k'))).decode([bound!], workflow('order-x'))).rejects.toThrow(ValueError);

    const [unbound] = await codec.encode([defaultPayloadConverter.toPayload(order)]);
    expect(unbound!.metadata!['encryption-workflow-id']).toBeUndefined();
    expect(await codec.decode([unbound!])).toHaveLength(1);
    await expect(codec.decode([unbound!], workflow('order-x'))).rejects.toThrow(/encrypted for no workflow is refused/);
  });

  test('the first format (associated data the key id alone) decodes only while clear payloads are accepted', async () => {
    const [id, base64] = keyEntry('old').split(':') as [string, string];
    const key = Buffer.from(base64, 'base64');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(id));
    const plain = temporal.api.common.v1.Payload.encode(defaultPayloadConverter.toPayload(order)).finish();
    const first = {
      metadata: { encoding: Buffer.from('binary/encrypted'), 'encryption-key-id': Buffer.from(id) },
      data: Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]),
    };
    await expect(new EncryptionCodec(keys(`${id}:${base64}`)).decode([first], workflow('order-x'))).rejects.toThrow(
      /first encrypted format/,
    );
    const migrating = new EncryptionCodec(keys(`${id}:${base64}`), { acceptClearUntil: new Date(Date.now() + 60_000) });
    expect(defaultPayloadConverter.fromPayload((await migrating.decode([first], workflow('order-x')))[0]!)).toEqual(order);
    // Nor can a first-format ciphertext be passed off as the second format bound to no workflow.
    const dressed = { ...first, metadata: { ...first.metadata, 'encryption-format': Buffer.from('2') } };
    await expect(migrating.decode([dressed])).rejects.toThrow();
  });

  test('failures carry their message and stack trace in an encrypted payload, and read back whole', async () => {
    const converter = loadDataConverter(encryptingDataConverter(keys(keyEntry('k'))));
    const secret = 'user-4b1d2f0e-customer';
    const failure = await encodeErrorToFailure(converter, new Error(`provider refused customer ${secret}`), workflow('order-x'));
    expect(failure.message).toBe('Encoded failure');
    const bytes = Buffer.from(temporal.api.failure.v1.Failure.encode(failure).finish());
    expect(bytes.includes(secret)).toBe(false);
    const error = await decodeOptionalFailureToOptionalError(converter, failure, workflow('order-x'));
    expect(error?.message).toBe(`provider refused customer ${secret}`);
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

  test('the development codec endpoint opens without a token only with the development key bytes, not any key named dev', () => {
    const devNamedPrivate = config({ NODE_ENV: 'development', ENCRYPTION_KEYS: keyEntry('dev') }).encryption;
    expect(devNamedPrivate.keys.map((k) => k.id)).toEqual(['dev']);
    expect(devNamedPrivate.codecEndpoint).toBeUndefined();
    expect(config({ NODE_ENV: 'development', ENCRYPTION_KEYS: DEV_ENCRYPTION_KEYS }).encryption.codecEndpoint).toBeDefined();
  });

  test('ENCRYPTION_ACCEPT_CLEAR_UNTIL: an ISO 8601 date at most 30 days ahead', () => {
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const until = inDays(29);
    expect(config({ ENCRYPTION_KEYS: keyEntry('k'), ENCRYPTION_ACCEPT_CLEAR_UNTIL: until }).encryption.acceptClearUntil).toEqual(
      new Date(until),
    );
    expect(config({ ENCRYPTION_KEYS: keyEntry('k') }).encryption.acceptClearUntil).toBeUndefined();
    expect(problems({ ENCRYPTION_KEYS: keyEntry('k'), ENCRYPTION_ACCEPT_CLEAR_UNTIL: inDays(31) })).toEqual([
      expect.stringMatching(/^ENCRYPTION_ACCEPT_CLEAR_UNTIL: at most 30 days ahead/),
    ]);
    expect(problems({ ENCRYPTION_KEYS: keyEntry('k'), ENCRYPTION_ACCEPT_CLEAR_UNTIL: 'next week' })).toEqual([
      expect.stringMatching(/^ENCRYPTION_ACCEPT_CLEAR_UNTIL: expected an ISO 8601 date/),
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
