/**
 * The payload codec that encrypts what the broker stores in Temporal (workflow inputs, results,
 * signals, memos, activity arguments) with AES-256-GCM, after Temporal's encryption sample: the
 * whole serialized payload becomes the ciphertext, and the metadata says only `binary/encrypted`
 * and the id of the key. Not imported by workflow code (node:crypto).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { METADATA_ENCODING_KEY, ValueError, type DataConverter, type Payload, type PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';

export const ENCODING_ENCRYPTED = 'binary/encrypted';
export const METADATA_ENCRYPTION_KEY_ID = 'encryption-key-id';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const EncryptionKeyEntrySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]{1,64}:[A-Za-z0-9+/]+={0,2}$/, 'expected <id>:<base64 key>')
  .transform((entry) => {
    const [id, base64] = entry.split(':') as [string, string];
    return { id, key: Buffer.from(base64, 'base64') };
  })
  .refine((entry) => entry.key.length === KEY_BYTES, { message: `the key must be ${KEY_BYTES} bytes (base64 of 32 random bytes)` });

/** Keys as `id:base64key` entries, separated by commas or new lines; the first one encrypts. */
export const EncryptionKeysSchema = z
  .string()
  .transform((text) => text.split(/[,\n]/).filter((entry) => entry.trim() !== ''))
  .pipe(z.array(EncryptionKeyEntrySchema).min(1, 'expected at least one <id>:<base64 key>'))
  .refine((keys) => new Set(keys.map((k) => k.id)).size === keys.length, { message: 'key ids must be unique' });

export type EncryptionKey = z.infer<typeof EncryptionKeyEntrySchema>;

const utf8 = (bytes: Uint8Array | null | undefined) => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);

/** AES-256-GCM over whole payloads; payloads without the encrypted encoding (recorded before) pass through. */
export class EncryptionCodec implements PayloadCodec {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly current: EncryptionKey;

  constructor(keys: readonly EncryptionKey[]) {
    if (keys.length === 0) throw new Error('EncryptionCodec needs at least one key');
    this.current = keys[0]!;
    this.keys = new Map(keys.map((k) => [k.id, k.key]));
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- a throw becomes a rejection, as PayloadCodec callers expect
  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.encrypt(payload));
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- a throw becomes a rejection, as PayloadCodec callers expect
  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => this.decrypt(payload));
  }

  private encrypt(payload: Payload): Payload {
    const { id, key } = this.current;
    const iv = randomBytes(IV_BYTES);
    // The key id is authenticated too: a ciphertext relabelled with another id does not decrypt.
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(id));
    const plain = temporal.api.common.v1.Payload.encode(payload).finish();
    const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return {
      metadata: { [METADATA_ENCODING_KEY]: Buffer.from(ENCODING_ENCRYPTED), [METADATA_ENCRYPTION_KEY_ID]: Buffer.from(id) },
      data,
    };
  }

  private decrypt(payload: Payload): Payload {
    if (utf8(payload.metadata?.[METADATA_ENCODING_KEY]) !== ENCODING_ENCRYPTED) return payload;
    const id = utf8(payload.metadata?.[METADATA_ENCRYPTION_KEY_ID]);
    const key = id === undefined ? undefined : this.keys.get(id);
    if (id === undefined || key === undefined) throw new ValueError(`payload encrypted with unknown key id ${JSON.stringify(id)}`);
    const data = Buffer.from(payload.data ?? []);
    if (data.length < IV_BYTES + TAG_BYTES) throw new ValueError('encrypted payload too short');
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES)).setAAD(Buffer.from(id));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
    return temporal.api.common.v1.Payload.decode(plain);
  }
}

/**
 * The value stored in a search attribute that must not show a customer identifier in clear (the
 * ExternalUserId): HMAC-SHA256 under a key derived from an encryption key, so that operators
 * holding the keys can still search for it (one value per key: see `searchableHashes`).
 */
export function searchableHash(key: EncryptionKey, value: string): string {
  const derived = createHmac('sha256', key.key).update('onramp-broker search attribute v1').digest();
  return createHmac('sha256', derived).update(value).digest('base64url').slice(0, 32);
}

/** The hash of `value` under every key, newest first: orders started under an older key carry its hash. */
export const searchableHashes = (keys: readonly EncryptionKey[], value: string): string[] => keys.map((k) => searchableHash(k, value));

/** The data converter of every client and worker: encrypting with `keys`, or the SDK's default without any. */
export const encryptingDataConverter = (keys: readonly EncryptionKey[]): DataConverter =>
  keys.length > 0 ? { payloadCodecs: [new EncryptionCodec(keys)] } : {};
