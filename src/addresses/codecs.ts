import { createHash } from 'node:crypto';
import { base58, bech32, bech32m, createBase58check } from '@scure/base';

const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());

/** Base58Check (double SHA-256 checksum) from @scure/base; SHA-256 from node:crypto. */
const base58check = createBase58check(sha256);

export type Decoded<T> = { ok: true; value: T } | { ok: false; checksum: boolean };

/**
 * Decodes a Base58Check string whose payload has exactly `payloadLength` bytes and whose leading
 * bytes `knownVersion` accepts. Anything else is not this kind of address (`checksum: false`); a
 * string of the right shape whose checksum fails is a mistyped address (`checksum: true`).
 */
export function decodeBase58Check(
  text: string,
  payloadLength: number,
  knownVersion: (payload: Uint8Array) => boolean,
): Decoded<Uint8Array> {
  const raw = decodeBase58(text);
  if (raw?.length !== payloadLength + 4 || !knownVersion(raw)) return { ok: false, checksum: false };
  try {
    return { ok: true, value: base58check.decode(text) };
  } catch {
    return { ok: false, checksum: true };
  }
}

/** Base58 to bytes, or undefined when the text is not base58 (Bitcoin alphabet). */
export function decodeBase58(text: string): Uint8Array | undefined {
  try {
    return base58.decode(text);
  } catch {
    return undefined;
  }
}

export interface Segwit {
  hrp: string;
  version: number;
  program: Uint8Array;
}

/** The human-readable part of a bech32 string (before its last '1'), lowercased; undefined if none. */
export function bech32Prefix(text: string): string | undefined {
  const separator = text.lastIndexOf('1');
  return separator > 0 ? text.slice(0, separator).toLowerCase() : undefined;
}

/**
 * Prefix, separator and at least the six checksum characters of bech32's alphabet: a string of
 * this shape that fails to decode has a checksum error; any other is not bech32 at all.
 */
const BECH32_SHAPE = /^[\x21-\x7e]+1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/;

export const isMixedCase = (text: string): boolean => text !== text.toLowerCase() && text !== text.toUpperCase();

/**
 * A segwit address (BIP-173, BIP-350): witness version 0 with a bech32 checksum, versions 1 to 16
 * with bech32m. Any other combination fails as a checksum error, as BIP-350 requires. Callers check
 * case mixing first.
 */
export function decodeSegwit(text: string): Decoded<Segwit> {
  const lower = text.toLowerCase();
  if (!BECH32_SHAPE.test(lower)) return { ok: false, checksum: false };
  const plain = bech32.decodeUnsafe(lower);
  const modified = plain ? undefined : bech32m.decodeUnsafe(lower);
  const decoded = plain ?? modified;
  if (!decoded) return { ok: false, checksum: true };
  const [version, ...words] = decoded.words;
  if (version === undefined || version > 16) return { ok: false, checksum: false };
  if ((version === 0) !== (plain !== undefined)) return { ok: false, checksum: true };
  const program = bech32.fromWordsUnsafe(words);
  if (!program || program.length < 2 || program.length > 40) return { ok: false, checksum: false };
  return { ok: true, value: { hrp: decoded.prefix, version, program } };
}

/** Bech32 (not bech32m) data as bytes, with no length limit (Cardano addresses exceed 90 characters). */
export function decodeBech32Bytes(text: string): Decoded<{ hrp: string; bytes: Uint8Array }> {
  const lower = text.toLowerCase();
  if (!BECH32_SHAPE.test(lower)) return { ok: false, checksum: false };
  const decoded = bech32.decodeUnsafe(lower, false);
  if (!decoded) return { ok: false, checksum: true };
  const bytes = bech32.fromWordsUnsafe(decoded.words);
  if (!bytes) return { ok: false, checksum: false };
  return { ok: true, value: { hrp: decoded.prefix, bytes } };
}
