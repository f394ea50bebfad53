import { isIP } from 'node:net';
import { z } from 'zod';

/** The names Express's `trust proxy` (proxy-addr) accepts for whole ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * The widest ranges believed: a /8 of IPv4, a /32 of IPv6. Wider ones (`0.0.0.0/0`, `::/0`) believe
 * most of the internet, as the refused `true` does.
 */
export const WIDEST_IPV4_PREFIX = 8;
export const WIDEST_IPV6_PREFIX = 32;
/** IPv4 addresses written as IPv6 (`::ffff:a.b.c.d`, proxy-addr matches them as IPv4): their prefix counts from bit 96. */
const IPV4_MAPPED = /^::ffff:(\d{1,3}(\.\d{1,3}){3}|[0-9a-f]{1,4}:[0-9a-f]{1,4})$/i;

const WIDE = `wider than /${WIDEST_IPV4_PREFIX} (IPv4) or /${WIDEST_IPV6_PREFIX} (IPv6): it would believe almost any sender`;

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
  if (IPV4_MAPPED.test(address)) return bits < 96 + WIDEST_IPV4_PREFIX ? `${entry} is ${WIDE}` : undefined;
  return bits < WIDEST_IPV6_PREFIX ? `${entry} is ${WIDE}` : undefined;
}

/**
 * TRUST_PROXY: the proxies whose `X-Forwarded-For` is believed, comma-separated addresses, CIDRs or
 * `loopback`/`linklocal`/`uniquelocal`, as Express's `trust proxy` takes them. Unset: none, so the
 * client address is the socket's. Hop counts, `true` and ranges wider than a /8 (IPv4) or /32 (IPv6)
 * are refused: they believe any sender.
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
