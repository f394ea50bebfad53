import { constants, createPublicKey, sign, verify } from 'node:crypto';
import { deriveRsaKey } from '../../../../src/providers/paybis/rsa-derivation';

const SECRET = 'a-private-simulator-secret-0123456789abcdef';
const modulusOf = (key: ReturnType<typeof deriveRsaKey>) => (key.export({ format: 'jwk' }) as { n: string }).n;

describe('deriveRsaKey', () => {
  const key = deriveRsaKey(SECRET, 'partner-key');

  test('the same secret and purpose give the same key (the broker and the simulator host agree without sharing it)', () => {
    expect(modulusOf(deriveRsaKey(SECRET, 'partner-key'))).toBe(modulusOf(key));
  });

  test('another purpose or secret gives another key', () => {
    expect(modulusOf(deriveRsaKey(SECRET, 'webhook-key'))).not.toBe(modulusOf(key));
    expect(modulusOf(deriveRsaKey(`${SECRET}!`, 'partner-key'))).not.toBe(modulusOf(key));
  });

  test('a valid 2048-bit RSA key with e = 65537 that signs with RSA-PSS SHA-512', () => {
    expect(key.asymmetricKeyType).toBe('rsa');
    expect(key.asymmetricKeyDetails).toMatchObject({ modulusLength: 2048, publicExponent: 65537n });
    const data = Buffer.from('body digest');
    const pss = { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 };
    const signature = sign('sha512', data, { key, ...pss });
    expect(verify('sha512', data, { key: createPublicKey(key), ...pss }, signature)).toBe(true);
  });
});
