import express from 'express';
import { TrustProxySchema } from '../../../src/config/trust-proxy';

const issues = (value: string) => {
  const result = TrustProxySchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

/** Whether Express, given `range` as its `trust proxy`, believes the X-Forwarded-For that `address` sends. */
function expressTrusts(range: string, address: string): boolean {
  const app = express();
  app.set('trust proxy', [range]);
  return (app.get('trust proxy fn') as (address: string, hop: number) => boolean)(address, 0);
}

const WIDE = /^.+ is wider than \/8 \(IPv4\) or \/32 \(IPv6\): it would believe almost any sender/;

describe('TRUST_PROXY ranges', () => {
  test('no wider than a /8 of IPv4 or a /32 of IPv6: /0 would believe anyone, as the refused `true`', () => {
    for (const range of ['0.0.0.0/0', '10.0.0.0/7', '::/0', '::/1', '2001:db8::/31', 'fd00::/8'])
      expect(issues(range)).toEqual([`${range} is wider than /8 (IPv4) or /32 (IPv6): it would believe almost any sender`]);
    expect(issues('10.0.0.0/8,172.16.0.0/12,2001:db8::/32,192.0.2.1')).toEqual([]);
  });

  test('IPv4-mapped IPv6 ranges count their prefix from bit 96', () => {
    expect(issues('::ffff:0.0.0.0/96')).toEqual([
      '::ffff:0.0.0.0/96 is wider than /8 (IPv4) or /32 (IPv6): it would believe almost any sender (IPv4-mapped: a /0 of IPv4)',
    ]);
    expect(issues('::ffff:10.0.0.0/103')).toEqual([expect.stringMatching(/\(IPv4-mapped: a \/7 of IPv4\)$/)]);
    expect(issues('::ffff:0:0/96')).toEqual([expect.stringMatching(WIDE)]);
    expect(issues('::ffff:10.0.0.0/104')).toEqual([]);
  });

  // Express (proxy-addr) reads each of these as the IPv4 range 0.0.0.0/0: it would believe any IPv4 client.
  test.each(['0:0:0:0:0:ffff:0.0.0.0/96', '0::ffff:0:0/96', '::0:ffff:0.0.0.0/96', '0:0:0:0:0:FFFF:0A00:0/103', '::FFFF:0.0.0.0/96'])(
    'the IPv4-mapped range %s, in another spelling than ::ffff:, is refused as Express reads it',
    (range) => {
      expect(expressTrusts(range, '203.0.113.9')).toBe(range.endsWith('/96'));
      expect(issues(range)).toEqual([expect.stringMatching(WIDE)]);
    },
  );

  test('an IPv4-mapped /104 in any spelling is accepted, and Express reads it as that IPv4 /8', () => {
    for (const range of ['::ffff:10.0.0.0/104', '0:0:0:0:0:ffff:10.0.0.0/104', '::0:ffff:a00:0/104']) {
      expect(issues(range)).toEqual([]);
      expect(expressTrusts(range, '10.200.0.1')).toBe(true);
      expect(expressTrusts(range, '11.0.0.1')).toBe(false);
    }
  });

  test('a range holding the whole IPv4-mapped block (::ffff:0:0/96) is refused: it names every IPv4 address', () => {
    for (const range of ['::/64', '::/80', '::ffff:0:0/80', '0:0:0:0:0:ffff:10.0.0.0/95'])
      expect(issues(range)).toEqual([
        `${range} is wider than /8 (IPv4) or /32 (IPv6): it would believe almost any sender (it holds every IPv4-mapped address, ::ffff:0:0/96)`,
      ]);
    // A /32 beside it stays an IPv6 range.
    expect(issues('::1:0:0:0/96,64:ff9b::/96')).toEqual([]);
  });

  test('malformed entries keep their message; named ranges pass', () => {
    expect(issues('10.0.0.0/33')).toEqual([expect.stringMatching(/^expected IP addresses or CIDRs/)]);
    expect(issues('::ffff:0:0/129')).toEqual([expect.stringMatching(/^expected IP addresses or CIDRs/)]);
    expect(issues('true')).toEqual([expect.stringMatching(/^expected IP addresses or CIDRs/)]);
    expect(issues('loopback,linklocal,uniquelocal')).toEqual([]);
  });
});
