import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must not reach unless configuration allows it: every range of the IANA IPv4
 * and IPv6 special-purpose registries, and multicast. That includes the few the registries call
 * globally reachable (PCP and TURN anycast, AS112, AMT, ORCHIDv2 and DRIP inside 2001::/23, NAT64's 64:ff9b::/96):
 * each is infrastructure, never an integrator's HTTPS endpoint. IPv4-mapped addresses are judged by
 * the IPv4 address inside (BlockList maps them).
 */
const SPECIAL = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  SPECIAL.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // IPv4-compatible (deprecated; :: and ::1 included) and SIIT forms: the guard does not look inside them.
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['2620:4f:8000::', 48],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  // Deprecated site-local (RFC 3879): not in the registry, but still local wherever it is used.
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  SPECIAL.addSubnet(net, prefix, 'ipv6');
}

/** True for an address on the public internet; false for loopback, private and special-purpose ranges. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !SPECIAL.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]!);
    return !SPECIAL.check(address, 'ipv6');
  }
  return false;
}

export class WebhookUrlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookUrlRefusedError';
  }
}

/** Refuses URLs that are not http(s), carry credentials, or name a non-public IP literal or localhost. */
export function checkWebhookUrl(url: string, allowPrivateNetworks: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WebhookUrlRefusedError('not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new WebhookUrlRefusedError(`scheme ${parsed.protocol} is not allowed`);
  if (parsed.username || parsed.password) throw new WebhookUrlRefusedError('credentials in the URL are not allowed');
  if (allowPrivateNetworks) return parsed;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) throw new WebhookUrlRefusedError(`${host} is a loopback name`);
  if (isIP(host) !== 0 && !isPublicAddress(host)) throw new WebhookUrlRefusedError(`${host} is not a public address`);
  return parsed;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for the HTTP client's connect step that fails when a name resolves to a non-public
 * address. Checking the address actually connected to (not a separate earlier lookup) closes the
 * DNS-rebinding gap.
 */
export function publicOnlyLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) {
      const error: NodeJS.ErrnoException = new WebhookUrlRefusedError(
        `${hostname} resolves to ${refused.address}, which is not a public address`,
      );
      error.code = 'ERR_WEBHOOK_ADDRESS_REFUSED';
      return callback(error, []);
    }
    if ((options as { all?: boolean }).all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}
