/** One address a network's rules must accept, with the canonical spelling they must return. */
export interface ValidVector {
  network: string;
  address: string;
  /** Defaults to `address`. */
  normalized?: string;
  /** Tag passed to the validator. */
  tag?: string;
  /** Tag the result must carry (the given one, or the one an X-address holds). */
  resultTag?: string;
  /** Where the vector comes from or what it shows. */
  note: string;
}

/** One address a network's rules must refuse, with the exact reason. */
export interface InvalidVector {
  network: string;
  address: string;
  reason: string;
  tag?: string;
  note: string;
}

/** `text` with the character at `index` (negative: from the end) replaced by `ch`. */
export function withChar(text: string, index: number, ch: string): string {
  const at = index < 0 ? text.length + index : index;
  if (text[at] === ch) throw new Error(`withChar: ${text} already has ${ch} at ${at}`);
  return text.slice(0, at) + ch + text.slice(at + 1);
}

export const notAddress = (network: string) => `not a ${network} address`;
export const checksum = (network: string) => `not a ${network} address: the checksum does not match`;
export const testnet = (network: string) => `a ${network} testnet address; only mainnet addresses are accepted`;
export const MIXED_CASE = 'the address mixes upper and lower case';
export const ZERO = 'the zero address cannot receive funds';
