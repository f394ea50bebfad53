import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** The names Express's `trust proxy` (proxy-addr) accepts for whole ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * The widest ranges believed: a /8 of IPv4, a /32 of IPv6. Wider ones (`0.0.0.0/0`, `::/0`) believe
 * most of the internet, as the refused `true` does.
 */
export const WIDEST_IPV4_PREFIX = 8;
export const WIDEST_IPV6_PREFIX = 32;
/**
 * ::ffff:0:0/96, IPv4 addresses written as IPv6. Express's proxy-addr parses entries with ipaddr.js,
 * as this file does, and matches IPv4 clients against a range inside the block however it is spelt
 * (`0::ffff:0.0.0.0/96` believes all of IPv4): such a range is judged by its IPv4 prefix, bits - 96.
 */
const IPV4_MAPPED_BLOCK = ipaddr.IPv6.parse('::ffff:0:0');
const IPV4_MAPPED_BITS = 96;

const WIDE = `wider than /${WIDEST_IPV4_PREFIX} (IPv4) or /${WIDEST_IPV6_PREFIX} (IPv6): it would believe almost any sender`;

/** Why an IPv6 range is too wide, or undefined. */
function ipv6RangeProblem(entry: string, address: string, bits: number): string | undefined {
  if (bits < WIDEST_IPV6_PREFIX) return `${entry} is ${WIDE}`;
  const range = ipaddr.IPv6.parse(address);
  if (!range.match(IPV4_MAPPED_BLOCK, Math.min(bits, IPV4_MAPPED_BITS))) return undefined;
  // Wider than the block, it holds every IPv4 address (proxy-addr before 2.0.8 matched IPv4 clients against it).
  if (bits < IPV4_MAPPED_BITS) return `${entry} is ${WIDE} (it holds every IPv4-mapped address, ::ffff:0:0/96)`;
  const ipv4Bits = bits - IPV4_MAPPED_BITS;
  return ipv4Bits < WIDEST_IPV4_PREFIX ? `${entry} is ${WIDE} (IPv4-mapped: a /${ipv4Bits} of IPv4)` : undefined;
}

/** Why an entry is refused, or undefined when it names proxies. */
function entryProblem(entry: string): string | undefined {
  if (NAMED_RANGES.has(entry)) return undefined;
  const malformed = 'expected IP addresses or CIDRs (or loopback, linklocal, uniquelocal), comma-separated';
  const [address = '', prefix, ...extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra.length > 0) return malformed;
  if (prefix === undefined) return undefined;
  if (!/^\d{1,3}$/.test(prefix)) return malformed;
  const bits = Number(prefix);
  if (bits > (family === 4 ? 32 : 128)) return malformed;
  if (family === 4) return bits < WIDEST_IPV4_PREFIX ? `${entry} is ${WIDE}` : undefined;
  if (!ipaddr.IPv6.isValid(address)) return malformed;
  return ipv6RangeProblem(entry, address, bits);
}

/**
 * TRUST_PROXY: the proxies whose `X-Forwarded-For` is believed, comma-separated addresses, CIDRs or
 * `loopback`/`linklocal`/`uniquelocal`, as Express's `trust proxy` takes them. Unset: none, so the
 * client address is the socket's. Hop counts, `true` and ranges wider than a /8 (IPv4) or /32 (IPv6)
 * are refused: they believe any sender. An IPv4-mapped range counts as the IPv4 range it maps.
 */
export const TrustProxySchema = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  )
  .pipe(
    z
      .array(
        z.string().superRefine((entry, ctx) => {
          const problem = entryProblem(entry);
          if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
        }),
      )
      .min(1),
  );
