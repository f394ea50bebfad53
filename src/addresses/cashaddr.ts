import { bech32 } from '@scure/base';
import { isMixedCase } from './codecs';
import { fail, ok, reasons, type AddressValidation, type NetworkValidator } from './result';
import { bitcoinCashLegacyValidator } from './utxo';

/**
 * Bitcoin Cash CashAddr (spec: github.com/bitcoincashorg/bitcoincash.org, spec/cashaddr.md). The
 * characters are bech32's, the checksum is a 40-bit BCH code of its own, so it is computed here
 * (the polymod below is the specification's); @scure/base only converts 5-bit groups to bytes.
 */
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATORS = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n] as const;
const MAINNET = 'bitcoincash';
const TESTNETS = ['bchtest', 'bchreg'] as const;

function polymod(values: readonly number[]): bigint {
  let c = 1n;
  for (const d of values) {
    const c0 = c >> 35n;
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(d);
    GENERATORS.forEach((g, i) => {
      if ((c0 >> BigInt(i)) & 1n) c ^= g;
    });
  }
  return c ^ 1n;
}

function checksumOk(prefix: string, words: readonly number[]): boolean {
  const prefixWords = [...prefix].map((ch) => ch.charCodeAt(0) & 0x1f);
  return polymod([...prefixWords, 0, ...words]) === 0n;
}

export interface CashAddr {
  prefix: string;
  /** 0 P2PKH, 1 P2SH, 2 and 3 the same with CashTokens support. */
  type: number;
  hash: Uint8Array;
}

/** Hash sizes of the version byte's three size bits. */
const HASH_BYTES = [20, 24, 28, 32, 40, 48, 56, 64] as const;

/**
 * Decodes a CashAddr with or without its prefix; without one, the prefixes are tried in turn.
 * Returns undefined for text that is not a CashAddr at all, 'checksum' for one whose checksum fails.
 */
export function decodeCashAddr(text: string): CashAddr | 'checksum' | undefined {
  if (isMixedCase(text)) return undefined;
  const lower = text.toLowerCase();
  const colon = lower.indexOf(':');
  const given = colon >= 0 ? lower.slice(0, colon) : undefined;
  const payload = colon >= 0 ? lower.slice(colon + 1) : lower;
  if (payload.length < 8 || ![...payload].every((ch) => CHARSET.includes(ch))) return undefined;
  const words = [...payload].map((ch) => CHARSET.indexOf(ch));
  const prefix = (given !== undefined ? [given] : [MAINNET, ...TESTNETS]).find((p) => checksumOk(p, words));
  if (prefix === undefined) return 'checksum';
  const bytes = bech32.fromWordsUnsafe(words.slice(0, -8));
  if (!bytes || bytes.length < 1) return undefined;
  const version = bytes[0] ?? 0;
  const hash = bytes.subarray(1);
  if (version & 0x80 || hash.length !== HASH_BYTES[version & 0x07]) return undefined;
  return { prefix, type: (version >> 3) & 0x0f, hash };
}

const CASHADDR_SHAPE = /^((bitcoincash|bchtest|bchreg):)?[qpzr][02-9ac-hj-np-z]{41}([02-9ac-hj-np-z]{19})?$/i;

function cashAddr(address: string): AddressValidation {
  const decoded = decodeCashAddr(address);
  if (decoded === 'checksum') return fail(reasons.checksum('bitcoin_cash'));
  if (!decoded) return fail(isMixedCase(address) ? reasons.mixedCase : reasons.notAddress('bitcoin_cash'));
  if (decoded.prefix !== MAINNET) return fail(reasons.testnet('bitcoin_cash'));
  // P2PKH hashes are 20 bytes; P2SH hashes 20 (P2SH20) or 32 (P2SH32).
  const p2sh = decoded.type === 1 || decoded.type === 3;
  const sizes = p2sh ? [20, 32] : [20];
  if (decoded.type > 3 || !sizes.includes(decoded.hash.length)) return fail(reasons.notAddress('bitcoin_cash'));
  const lower = address.toLowerCase();
  return ok(lower.startsWith(`${MAINNET}:`) ? lower : `${MAINNET}:${lower}`);
}

/** Bitcoin Cash: CashAddr (bitcoincash:q…/p…, prefix optional) or a legacy Base58Check address. */
export const bitcoinCashValidator: NetworkValidator = (address) =>
  CASHADDR_SHAPE.test(address) ? cashAddr(address) : bitcoinCashLegacyValidator(address);
