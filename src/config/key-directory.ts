import { hash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError } from '../providers/kit/config';

/** Whoever holds API keys: integrators, operators. */
export interface KeyHolder {
  id: string;
  /** SHA-256 digests of the holder's keys; more than one during a key rotation. */
  api_key_sha256: readonly string[];
}

/** Looks key holders up by key. Keys are held only as SHA-256 digests and compared in constant time. */
export class KeyDirectory<T extends KeyHolder> {
  private readonly entries: { digest: Buffer; holder: T }[];

  constructor(protected readonly holders: readonly T[]) {
    this.entries = holders.flatMap((holder) => holder.api_key_sha256.map((hex) => ({ digest: Buffer.from(hex, 'hex'), holder })));
  }

  authenticate(apiKey: string): T | undefined {
    const digest = hash('sha256', apiKey, 'buffer');
    let found: T | undefined;
    // Walk every entry so the time taken does not depend on which key matched.
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, digest)) found = entry.holder;
    }
    return found;
  }
}

/** A JSON file of key holders (the integrators', the operators'), checked by `schema`; a ConfigError naming `variable` otherwise. */
export function readHoldersFile<S extends z.ZodType>(variable: string, path: string, schema: S): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError([`${variable}: cannot read ${path}: ${(err as Error).message}`]);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError([`${variable}: ${path} is invalid: ${detail}`]);
  }
  return parsed.data;
}
