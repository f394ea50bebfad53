import { execFileSync } from 'node:child_process';
import { constants, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_PARTNER_PRIVATE_KEY, DEV_PARTNER_PUBLIC_KEY } from '../../../../src/providers/paybis/development-keys';
import { bodyDigestHex, signPaybisBody, verifyPaybisSignature } from '../../../../src/providers/paybis/signature';

const BODY = JSON.stringify({ partnerUserId: 'user-1', partnerTransactionId: 'ord_1', quoteId: 'q-1', locale: 'en' });
const privateKey = createPrivateKey(DEV_PARTNER_PRIVATE_KEY);
const publicKey = createPublicKey(DEV_PARTNER_PUBLIC_KEY);

/** Whether OpenSSL's own RSA-PSS (a verifier the project did not write) accepts the signature of `message`. */
function opensslVerifies(message: string, signatureB64: string): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'paybis-pss-'));
  try {
    writeFileSync(join(dir, 'key.pub'), DEV_PARTNER_PUBLIC_KEY);
    writeFileSync(join(dir, 'message'), message);
    writeFileSync(join(dir, 'sig'), Buffer.from(signatureB64, 'base64'));
    const args = ['dgst', '-sha512', '-verify', join(dir, 'key.pub'), '-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:64'];
    try {
      execFileSync('openssl', [...args, '-signature', join(dir, 'sig'), join(dir, 'message')], { stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
})();

describe('Paybis request signature (docs.payb.is, "Signing Requests")', () => {
  test('signs the lowercase hex SHA-512 of the body (128 characters)', () => {
    expect(bodyDigestHex(BODY)).toMatch(/^[0-9a-f]{128}$/);
    const signature = signPaybisBody(BODY, privateKey);
    expect(Buffer.from(signature, 'base64')).toHaveLength(256);
    expect(verifyPaybisSignature(Buffer.from(BODY), signature, publicKey)).toBe(true);
  });

  (hasOpenssl ? test : test.skip)('OpenSSL verifies it as RSASSA-PSS SHA-512 with a 64-byte salt over the hex digest', () => {
    const signature = signPaybisBody(BODY, privateKey);
    expect(opensslVerifies(bodyDigestHex(BODY), signature)).toBe(true);
    // Not over the raw body, and not over another body.
    expect(opensslVerifies(BODY, signature)).toBe(false);
    expect(opensslVerifies(bodyDigestHex(`${BODY} `), signature)).toBe(false);
  });

  (hasOpenssl ? test : test.skip)('a signature OpenSSL makes verifies here', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paybis-pss-'));
    try {
      writeFileSync(join(dir, 'key.pem'), DEV_PARTNER_PRIVATE_KEY);
      writeFileSync(join(dir, 'message'), bodyDigestHex(BODY));
      const signature = execFileSync('openssl', [
        'dgst',
        '-sha512',
        '-sign',
        join(dir, 'key.pem'),
        '-sigopt',
        'rsa_padding_mode:pss',
        '-sigopt',
        'rsa_pss_saltlen:64',
        join(dir, 'message'),
      ]);
      expect(verifyPaybisSignature(Buffer.from(BODY), signature.toString('base64'), publicKey)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the raw-body form verifies too (Paybis does not say which its webhooks sign)', () => {
    const raw = sign('sha512', Buffer.from(BODY), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 });
    expect(verifyPaybisSignature(Buffer.from(BODY), raw.toString('base64'), publicKey)).toBe(true);
  });

  test('refuses another key, another body, PKCS#1 v1.5, and malformed signatures', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(verifyPaybisSignature(Buffer.from(BODY), signPaybisBody(BODY, other.privateKey), publicKey)).toBe(false);
    expect(verifyPaybisSignature(Buffer.from(`${BODY}\n`), signPaybisBody(BODY, privateKey), publicKey)).toBe(false);
    const digest = Buffer.from(createHash('sha512').update(BODY).digest('hex'));
    const v15 = sign('sha512', digest, { key: privateKey, padding: constants.RSA_PKCS1_PADDING });
    expect(verifyPaybisSignature(Buffer.from(BODY), v15.toString('base64'), publicKey)).toBe(false);
    for (const bad of ['', 'not base64!', 'AAAA', 'A'.repeat(344)])
      expect(verifyPaybisSignature(Buffer.from(BODY), bad, publicKey)).toBe(false);
  });
});
