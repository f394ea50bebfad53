import { isIP } from 'node:net';
import { z } from 'zod';

/** The names Express's `trust proxy` (proxy-addr) accepts for whole ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: the proxies whose `X-Forwarded-For` is believed, comma-separated addresses, CIDRs or
 * `loopback`/`linklocal`/`uniquelocal`, as Express's `trust proxy` takes them. Unset: none, so the
 * client address is the socket's. Hop counts and `true` are refused: they believe any sender.
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
      .array(z.string().refine(isProxyAddress, 'expected IP addresses or CIDRs (or loopback, linklocal, uniquelocal), comma-separated'))
      .min(1),
  );
