import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../providers/kit/config';
import { EncryptionKeysSchema, type EncryptionKey } from '../temporal/codec';

const optionalString = z.string().trim().optional();

/** Payload encryption in Temporal and the codec endpoint that decodes for the Web UI and the CLI (README, "Configuration"). */
export const ENCRYPTION_ENV_SHAPE = {
  /** `id:base64key` entries, comma-separated; the first encrypts, every one decrypts. */
  ENCRYPTION_KEYS: optionalString,
  /** A file of the same entries (one a line or comma-separated), read at start-up, after ENCRYPTION_KEYS. */
  ENCRYPTION_KEYS_FILE: optionalString,
  /** The bearer token the codec endpoint (/codec/encode, /codec/decode) requires. */
  CODEC_AUTH_TOKEN: optionalString.pipe(z.string().min(32).optional()),
  /**
   * A migration: until this date (ISO 8601, at most ACCEPT_CLEAR_MAX_DAYS ahead), payloads in clear
   * (recorded before the keys were set) and payloads of the first encrypted format still decode.
   */
  ENCRYPTION_ACCEPT_CLEAR_UNTIL: optionalString.pipe(
    z
      .string()
      .regex(
        /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/,
        'expected an ISO 8601 date or date-time with its offset',
      )
      .transform((v) => new Date(v))
      .refine((d) => !Number.isNaN(d.getTime()), 'not a valid date')
      .optional(),
  ),
  /** Origins (the Temporal Web UI's) whose browsers may call the codec endpoint, comma-separated. */
  CODEC_CORS_ORIGINS: optionalString.pipe(
    z
      .string()
      .transform((v) => v.split(',').map((s) => s.trim().replace(/\/+$/, '')))
      .pipe(z.array(z.url()))
      .optional(),
  ),
};

type EncryptionEnv = z.infer<z.ZodObject<typeof ENCRYPTION_ENV_SHAPE>> & { NODE_ENV: 'development' | 'production' | 'test' };

/**
 * The development key: published here, so it protects nothing; `npm run dev` uses it when no key is
 * set, so that its Web UI shows what production's shows. Production refuses it (id or bytes).
 */
export const DEV_ENCRYPTION_KEY_ID = 'dev';
const DEV_ENCRYPTION_KEY = Buffer.from('b25yYW1wLWJyb2tlci1kZXYtb25seS1wYXlsb2FkLWs=', 'base64');
export const DEV_ENCRYPTION_KEYS = `${DEV_ENCRYPTION_KEY_ID}:${DEV_ENCRYPTION_KEY.toString('base64')}`;

/** How far ahead ENCRYPTION_ACCEPT_CLEAR_UNTIL may be: clear payloads are a hole to close, not a way of running. */
export const ACCEPT_CLEAR_MAX_DAYS = 30;
const DAY_MS = 86_400_000;

/** The Web UI of `npm run dev` (its Temporal dev server's --ui-port). */
const DEV_UI_ORIGINS = ['http://localhost:8233', 'http://127.0.0.1:8233'];

export interface EncryptionConfig {
  /** The payload keys, the encrypting one first; none: payloads are stored in clear (tests only). */
  keys: EncryptionKey[];
  /** Until when payloads in clear (and of the first encrypted format) still decode; absent: never. */
  acceptClearUntil?: Date;
  /** The codec endpoint; absent: not served. Without a token only with the published development key. */
  codecEndpoint?: { token?: string; corsOrigins: string[] };
}

function parseKeys(variable: string, text: string, problems: string[]): EncryptionKey[] {
  const result = EncryptionKeysSchema.safeParse(text);
  if (result.success) return result.data;
  problems.push(...result.error.issues.map((issue) => `${variable}: ${issue.message}`));
  return [];
}

function readKeysFile(path: string, problems: string[]): EncryptionKey[] {
  try {
    return parseKeys('ENCRYPTION_KEYS_FILE', readFileSync(path, 'utf8'), problems);
  } catch (err) {
    problems.push(`ENCRYPTION_KEYS_FILE: cannot read ${path}: ${(err as Error).message}`);
    return [];
  }
}

/**
 * Payload keys and codec endpoint, checked now: production requires keys, refuses the development
 * key and a browser-reachable codec endpoint without a token; development without keys uses the
 * published development key; tests without keys store payloads in clear.
 */
export function encryptionConfig(env: EncryptionEnv, now = Date.now()): EncryptionConfig {
  const problems: string[] = [];
  const production = env.NODE_ENV === 'production';
  let keys = [
    ...(env.ENCRYPTION_KEYS ? parseKeys('ENCRYPTION_KEYS', env.ENCRYPTION_KEYS, problems) : []),
    ...(env.ENCRYPTION_KEYS_FILE ? readKeysFile(env.ENCRYPTION_KEYS_FILE, problems) : []),
  ];
  if (new Set(keys.map((k) => k.id)).size !== keys.length)
    problems.push('ENCRYPTION_KEYS_FILE: key ids must be unique across both settings');
  if (production && keys.length === 0 && problems.length === 0) {
    problems.push(
      'ENCRYPTION_KEYS: required in production, so that customer data is encrypted in Temporal (or ENCRYPTION_KEYS_FILE): id:base64key entries, each key 32 random bytes',
    );
  }
  if (production && keys.some((k) => k.id === DEV_ENCRYPTION_KEY_ID || k.key.equals(DEV_ENCRYPTION_KEY))) {
    problems.push('ENCRYPTION_KEYS: the published development key is refused in production');
  }
  const until = env.ENCRYPTION_ACCEPT_CLEAR_UNTIL;
  if (until && until.getTime() > now + ACCEPT_CLEAR_MAX_DAYS * DAY_MS)
    problems.push(`ENCRYPTION_ACCEPT_CLEAR_UNTIL: at most ${ACCEPT_CLEAR_MAX_DAYS} days ahead (${until.toISOString()} is later)`);
  if (production && env.CODEC_CORS_ORIGINS && !env.CODEC_AUTH_TOKEN)
    problems.push('CODEC_AUTH_TOKEN: required in production with CODEC_CORS_ORIGINS');
  if (problems.length > 0) throw new ConfigError(problems);

  const development = env.NODE_ENV === 'development';
  if (keys.length === 0 && development) keys = parseKeys('ENCRYPTION_KEYS', DEV_ENCRYPTION_KEYS, problems);
  // The key's bytes, not only its id: `dev:<a private key>` must not open the endpoint without a token.
  const devKeyOnly = development && keys.length === 1 && keys[0]!.id === DEV_ENCRYPTION_KEY_ID && keys[0]!.key.equals(DEV_ENCRYPTION_KEY);
  const corsOrigins = env.CODEC_CORS_ORIGINS ?? (development ? DEV_UI_ORIGINS : []);
  const codecEndpoint =
    keys.length > 0 && (env.CODEC_AUTH_TOKEN || devKeyOnly)
      ? { ...(env.CODEC_AUTH_TOKEN ? { token: env.CODEC_AUTH_TOKEN } : {}), corsOrigins }
      : undefined;
  return { keys, ...(until ? { acceptClearUntil: until } : {}), ...(codecEndpoint ? { codecEndpoint } : {}) };
}
