/**
 * The SSRF guard against every range of the IANA special-purpose address registries (RFC 6890 and
 * the registries' current entries), IPv4 and IPv6, plus multicast: the first and last address of
 * each range is refused, as literal and inside a webhook URL.
 */
import { isIP } from 'node:net';
import { checkWebhookUrl, isPublicAddress, WebhookUrlRefusedError } from '../../../src/webhooks/ssrf';

const IPV4_SPECIAL = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (CGN)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.0.0/29', // IPv4 service continuity prefix
  '192.0.0.8/32', // IPv4 dummy address
  '192.0.0.9/32', // port control protocol anycast (globally reachable)
  '192.0.0.10/32', // TURN anycast (globally reachable)
  '192.0.0.170/32', // NAT64/DNS64 discovery
  '192.0.0.171/32', // NAT64/DNS64 discovery
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.31.196.0/24', // AS112-v4 (globally reachable)
  '192.52.193.0/24', // AMT (globally reachable)
  '192.88.99.0/24', // deprecated 6to4 relay anycast
  '192.168.0.0/16', // private
  '192.175.48.0/24', // direct delegation AS112 (globally reachable)
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved
  '255.255.255.255/32', // limited broadcast
];

const IPV6_SPECIAL = [
  '::1/128', // loopback
  '::/128', // unspecified
  '::/96', // IPv4-compatible (deprecated)
  '::ffff:0:0/96', // IPv4-mapped, with a special IPv4 address inside (first and last: 0.0.0.0, 255.255.255.255)
  '::ffff:0:0:0/96', // SIIT IPv4-translated
  '64:ff9b::/96', // IPv4/IPv6 translation (globally reachable)
  '64:ff9b:1::/48', // local-use IPv4/IPv6 translation
  '100::/64', // discard-only
  '2001::/23', // IETF protocol assignments
  '2001::/32', // Teredo
  '2001:1::1/128', // port control protocol anycast (globally reachable)
  '2001:1::2/128', // TURN anycast (globally reachable)
  '2001:2::/48', // benchmarking
  '2001:3::/32', // AMT (globally reachable)
  '2001:4:112::/48', // AS112-v6 (globally reachable)
  '2001:10::/28', // deprecated ORCHID
  '2001:20::/28', // ORCHIDv2 (globally reachable)
  '2001:30::/28', // drone remote ID (globally reachable)
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4
  '2620:4f:8000::/48', // direct delegation AS112 (globally reachable)
  '3fff::/20', // documentation
  '5f00::/16', // segment routing SIDs
  'fc00::/7', // unique local
  'fe80::/10', // link-local
  'ff00::/8', // multicast
];

function ipv4Bounds(net: string, prefix: number): [string, string] {
  const base = net.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  const size = 2 ** (32 - prefix);
  const text = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
  return [text(base), text(base + size - 1)];
}

function ipv6Bounds(net: string, prefix: number): [string, string] {
  const [head = '', tail = ''] = net.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const hextets = [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  const base = hextets.reduce((n, h) => (n << 16n) | BigInt(`0x${h}`), 0n);
  const last = base | ((1n << BigInt(128 - prefix)) - 1n);
  const text = (n: bigint) => Array.from({ length: 8 }, (_, i) => ((n >> BigInt(16 * (7 - i))) & 0xffffn).toString(16)).join(':');
  return [text(base), text(last)];
}

function bounds(range: string): [string, string] {
  const [net = '', prefix = ''] = range.split('/');
  return isIP(net) === 4 ? ipv4Bounds(net, Number(prefix)) : ipv6Bounds(net, Number(prefix));
}

const cases = [...IPV4_SPECIAL, ...IPV6_SPECIAL].flatMap((range) => bounds(range).map((address) => [range, address] as const));

describe('every IANA special-purpose range is refused', () => {
  test.each(cases)('%s: %s is not public', (_range, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  test.each(cases)('%s: a webhook URL to %s is refused', (_range, address) => {
    const host = isIP(address) === 6 ? `[${address}]` : address;
    expect(() => checkWebhookUrl(`https://${host}/hooks`, false)).toThrow(WebhookUrlRefusedError);
  });
});

describe('IPv4 inside IPv6', () => {
  test.each(['::8.8.8.8', '::808:808', '::127.0.0.1', '::ffff:0:8.8.8.8', '::ffff:0:808:808', '::ffff:0:127.0.0.1'])(
    'the IPv4-compatible or SIIT form %s is refused, whatever the IPv4 address inside',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
      expect(() => checkWebhookUrl(`https://[${address}]/hooks`, false)).toThrow(WebhookUrlRefusedError);
    },
  );

  test.each(['::ffff:8.8.8.8', '::ffff:808:808'])('the IPv4-mapped form %s of a public address is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
    expect(checkWebhookUrl(`https://[${address}]/hooks`, false).hostname).toBe('[::ffff:808:808]');
  });
});

test.each([
  '192.0.1.0', // after 192.0.0.0/24
  '192.31.197.1',
  '192.52.192.255',
  '192.175.49.0',
  '2001:200::1', // after 2001::/23
  '2620:4f:8001::1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:81c::200e',
])('%s, next to the special ranges, is public', (address) => {
  expect(isPublicAddress(address)).toBe(true);
});
