/**
 * Networks whose transfers can carry a destination tag or memo. Exchanges and custodians receive
 * on shared addresses and tell customers apart by it, so for them it is required; the network never
 * requires one, so an address without a tag is valid. Each rule checks the format of a given tag.
 */
export interface MemoCapability {
  /** What the network calls it, used in reasons. */
  label: string;
  /** Why the tag is refused, or undefined when its format is fine. */
  check(tag: string): string | undefined;
}

/** C0 and C1 control characters and DEL. */
const hasControl = (text: string): boolean =>
  [...text].some((ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });
const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

function text(label: string, maxBytes: number, unit: 'bytes' | 'characters'): MemoCapability {
  return {
    label,
    check(tag) {
      const size = unit === 'bytes' ? utf8Bytes(tag) : [...tag].length;
      if (size > maxBytes) return `the ${label} is longer than ${maxBytes} ${unit}`;
      if (hasControl(tag)) return `the ${label} contains control characters`;
      return undefined;
    },
  };
}

const MAX_DESTINATION_TAG = 4_294_967_295;

export const MEMO_NETWORKS: ReadonlyMap<string, MemoCapability> = new Map<string, MemoCapability>([
  // XRP destination tag: an unsigned 32-bit integer, in decimal without leading zeros.
  [
    'ripple',
    {
      label: 'destination tag',
      check: (tag) =>
        /^(0|[1-9]\d{0,9})$/.test(tag) && Number(tag) <= MAX_DESTINATION_TAG
          ? undefined
          : `the destination tag must be an integer from 0 to ${MAX_DESTINATION_TAG}`,
    },
  ],
  // Stellar MEMO_TEXT holds up to 28 bytes; every MEMO_ID (unsigned 64-bit, at most 20 digits) fits too.
  ['stellar', text('memo', 28, 'bytes')],
  // TON text comment: what fits in one cell after the 32-bit zero opcode (1023 bits).
  ['ton', text('comment', 123, 'bytes')],
  // Cosmos SDK transaction memo: the Hub's max_memo_characters (256).
  ['cosmos', text('memo', 256, 'characters')],
]);
