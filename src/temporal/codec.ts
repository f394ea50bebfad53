/**
 * The payload codec that encrypts what the broker stores in Temporal (workflow inputs, results,
 * signals, memos, activity arguments, failure messages) with AES-256-GCM, after Temporal's encryption
 * sample: the whole serialized payload becomes the ciphertext; the metadata says `binary/encrypted`,
 * the id of the key and the workflow the payload belongs to, all three authenticated. Not imported
 * by workflow code (node:crypto).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import {
  METADATA_ENCODING_KEY,
  ValueError,
  type DataConverter,
  type Payload,
  type PayloadCodec,
  type SerializationContext,
} from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { z } from 'zod';

export const ENCODING_ENCRYPTED = 'binary/encrypted';
export const METADATA_ENCRYPTION_KEY_ID = 'encryption-key-id';
/** The format of an encrypted payload: absent in the first one (issue 21), whose associated data was the key id alone. */
export const METADATA_ENCRYPTION_FORMAT = 'encryption-format';
/** The workflow a payload of format 2 belongs to; absent when it was encoded for no workflow (the codec endpoint's encode). */
export const METADATA_ENCRYPTION_WORKFLOW_ID = 'encryption-workflow-id';
const FORMAT_BOUND = '2';

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

/** The associated data of a format 2 payload: the key id and the workflow id (none: bound to no workflow). */
const boundAad = (keyId: string, workflowId: string | undefined) =>
  Buffer.from(JSON.stringify(['onramp-payload', FORMAT_BOUND, keyId, workflowId ?? null]));

export interface EncryptionCodecOptions {
  /**
   * Until when payloads in clear, and payloads of the first format (bound to no workflow), are still
   * decoded (ENCRYPTION_ACCEPT_CLEAR_UNTIL, a migration); absent: refused.
   */
  acceptClearUntil?: Date;
  /** Decode them always: the codec endpoint, which decodes for people to read and moves nothing. */
  acceptClear?: boolean;
  /** The clock acceptClearUntil is compared with. */
  now?: () => number;
}

/**
 * AES-256-GCM over whole payloads, each bound to the workflow it belongs to. Decoding refuses a
 * payload in clear (anyone with write access to Temporal could have sent it) and, when the SDK names
 * the workflow being decoded for, a ciphertext bound to another workflow or to none.
 */
export class EncryptionCodec implements PayloadCodec {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly current: EncryptionKey;

  constructor(
    keys: readonly EncryptionKey[],
    private readonly options: EncryptionCodecOptions = {},
  ) {
    if (keys.length === 0) throw new Error('EncryptionCodec needs at least one key');
    this.current = keys[0]!;
    this.keys = new Map(keys.map((k) => [k.id, k.key]));
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- a throw becomes a rejection, as PayloadCodec callers expect
  async encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    return payloads.map((payload) => this.encrypt(payload, context?.workflowId));
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- a throw becomes a rejection, as PayloadCodec callers expect
  async decode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    return payloads.map((payload) => this.decrypt(payload, context?.workflowId));
  }

  private acceptsClear(): boolean {
    const { acceptClear, acceptClearUntil, now = Date.now } = this.options;
    return acceptClear === true || (acceptClearUntil !== undefined && now() < acceptClearUntil.getTime());
  }

  private encrypt(payload: Payload, workflowId: string | undefined): Payload {
    const { id, key } = this.current;
    const iv = randomBytes(IV_BYTES);
    // The key id and the workflow id are authenticated too: a ciphertext relabelled with another does not decrypt.
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(boundAad(id, workflowId));
    const plain = temporal.api.common.v1.Payload.encode(payload).finish();
    const data = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return {
      metadata: {
        [METADATA_ENCODING_KEY]: Buffer.from(ENCODING_ENCRYPTED),
        [METADATA_ENCRYPTION_KEY_ID]: Buffer.from(id),
        [METADATA_ENCRYPTION_FORMAT]: Buffer.from(FORMAT_BOUND),
        ...(workflowId === undefined ? {} : { [METADATA_ENCRYPTION_WORKFLOW_ID]: Buffer.from(workflowId) }),
      },
      data,
    };
  }

  /** `expectedWorkflowId`: the workflow the SDK decodes for; undefined when it names none (the codec endpoint, a listing). */
  private decrypt(payload: Payload, expectedWorkflowId: string | undefined): Payload {
    const metadata = payload.metadata ?? {};
    if (utf8(metadata[METADATA_ENCODING_KEY]) !== ENCODING_ENCRYPTED) {
      if (this.acceptsClear()) return payload;
      throw new ValueError(
        'a payload in clear is refused: with ENCRYPTION_KEYS set only the broker writes payloads, encrypted (ENCRYPTION_ACCEPT_CLEAR_UNTIL accepts them during a migration)',
      );
    }
    const id = utf8(metadata[METADATA_ENCRYPTION_KEY_ID]);
    const key = id === undefined ? undefined : this.keys.get(id);
    if (id === undefined || key === undefined) throw new ValueError(`payload encrypted with unknown key id ${JSON.stringify(id)}`);
    const format = utf8(metadata[METADATA_ENCRYPTION_FORMAT]);
    let aad: Buffer;
    if (format === undefined) {
      if (!this.acceptsClear())
        throw new ValueError(
          'a payload of the first encrypted format (bound to no workflow) is refused after ENCRYPTION_ACCEPT_CLEAR_UNTIL',
        );
      aad = Buffer.from(id);
    } else if (format === FORMAT_BOUND) {
      const workflowId = utf8(metadata[METADATA_ENCRYPTION_WORKFLOW_ID]);
      if (expectedWorkflowId !== undefined && workflowId !== expectedWorkflowId) {
        throw new ValueError(
          workflowId === undefined
            ? `a payload encrypted for no workflow is refused for workflow ${expectedWorkflowId}`
            : `a payload encrypted for another workflow is refused for workflow ${expectedWorkflowId}`,
        );
      }
      aad = boundAad(id, workflowId);
    } else {
      throw new ValueError(`unknown encrypted payload format ${JSON.stringify(format)}`);
    }
    const data = Buffer.from(payload.data ?? []);
    if (data.length < IV_BYTES + TAG_BYTES) throw new ValueError('encrypted payload too short');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV_BYTES)).setAAD(aad);
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]);
      return temporal.api.common.v1.Payload.decode(plain);
    } catch (err) {
      // Another key under the same id, or altered bytes: a refusal like the others, not a crash.
      throw new ValueError(`encrypted payload does not decrypt under key id ${JSON.stringify(id)}`, err);
    }
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

/**
 * The failure converter of every client, worker and workflow bundle (src/temporal/failure-converter.ts):
 * a failure's message and stack trace go into a payload, which the codec encrypts.
 */
export const FAILURE_CONVERTER_PATH = require.resolve('./failure-converter');

/** The data converter of every client and worker: encrypting with `keys`, or payloads in clear without any. */
export const encryptingDataConverter = (keys: readonly EncryptionKey[], options: EncryptionCodecOptions = {}): DataConverter => ({
  failureConverterPath: FAILURE_CONVERTER_PATH,
  ...(keys.length > 0 ? { payloadCodecs: [new EncryptionCodec(keys, options)] } : {}),
});
