import { TrustProxySchema } from '../../../src/config/trust-proxy';

const issues = (value: string) => {
  const result = TrustProxySchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('TRUST_PROXY ranges', () => {
  test('no wider than a /8 of IPv4 or a /32 of IPv6: /0 would believe anyone, as the refused `true`', () => {
    for (const range of ['0.0.0.0/0', '10.0.0.0/7', '::/0', '::/1', '2001:db8::/31', 'fd00::/8'])
      expect(issues(range)).toEqual([`${range} is wider than /8 (IPv4) or /32 (IPv6): it would believe almost any sender`]);
    expect(issues('10.0.0.0/8,172.16.0.0/12,2001:db8::/32,192.0.2.1')).toEqual([]);
  });

  test('IPv4-mapped IPv6 ranges count their prefix from bit 96', () => {
    expect(issues('::ffff:0.0.0.0/96')).toHaveLength(1);
    expect(issues('::ffff:10.0.0.0/103')).toHaveLength(1);
    expect(issues('::ffff:0:0/96')).toHaveLength(1);
    expect(issues('::ffff:10.0.0.0/104')).toEqual([]);
  });

  test('malformed entries keep their message; named ranges pass', () => {
    expect(issues('10.0.0.0/33')).toEqual([expect.stringMatching(/^expected IP addresses or CIDRs/)]);
    expect(issues('true')).toEqual([expect.stringMatching(/^expected IP addresses or CIDRs/)]);
    expect(issues('loopback,linklocal,uniquelocal')).toEqual([]);
  });
});
