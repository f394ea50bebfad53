import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { cdpPublicKey, parseCdpSecret, signCdpJwt } from '../../../../src/providers/coinbase/jwt';
import { COINBASE_SIMULATOR_CREDENTIALS, coinbaseSimulatorCredentials } from '../../../../src/providers/coinbase/config';
import { checkCdpJwt, cdpPublicKey as simulatorPublicKey } from '../../../../src/simulators/coinbase/signing';

const KEY_NAME = 'organizations/org-1/apiKeys/key-1';
const REQUEST = { method: 'POST', host: 'api.developer.coinbase.com', path: '/onramp/v1/buy/quote' } as const;
const NOW = Math.floor(Date.now() / 1000);

describe('CDP JWT', () => {
  test('Ed25519: EdDSA, kid and nonce in the header; sub, iss, aud, nbf/exp 120 s and the request in uris', async () => {
    const key = parseCdpSecret(COINBASE_SIMULATOR_CREDENTIALS.apiKeySecret)!;
    expect(key.alg).toBe('EdDSA');
    const token = await signCdpJwt(KEY_NAME, key, REQUEST, NOW);
    const header = decodeProtectedHeader(token);
    expect(header).toMatchObject({ alg: 'EdDSA', kid: KEY_NAME, typ: 'JWT' });
    expect(header.nonce).toMatch(/^[0-9a-f]{32}$/);
    const { payload } = await jwtVerify(token, cdpPublicKey(key), { currentDate: new Date(NOW * 1000) });
    expect(payload).toEqual({
      sub: KEY_NAME,
      iss: 'cdp',
      aud: ['cdp_service'],
      uris: ['POST api.developer.coinbase.com/onramp/v1/buy/quote'],
      iat: NOW,
      nbf: NOW,
      exp: NOW + 120,
    });
  });

  test('ECDSA: a P-256 PEM (newlines escaped as in an environment variable) signs ES256', async () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const pem = privateKey.export({ type: 'sec1', format: 'pem' }).toString().replace(/\n/g, '\\n');
    const key = parseCdpSecret(pem)!;
    expect(key.alg).toBe('ES256');
    const token = await signCdpJwt(KEY_NAME, key, REQUEST, NOW);
    await expect(jwtVerify(token, cdpPublicKey(key), { currentDate: new Date(NOW * 1000) })).resolves.toBeDefined();
  });

  test('other secrets are not CDP keys', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    expect(parseCdpSecret(privateKey.export({ type: 'sec1', format: 'pem' }).toString())).toBeUndefined();
    expect(parseCdpSecret('bm90IGEga2V5')).toBeUndefined();
    // 64 bytes whose second half is not the seed's public key.
    expect(parseCdpSecret(Buffer.alloc(64, 7).toString('base64'))).toBeUndefined();
  });

  test("the simulator's own reading accepts the adapter's token for that request only", async () => {
    const credentials = coinbaseSimulatorCredentials('a private simulator secret');
    const key = parseCdpSecret(credentials.apiKeySecret)!;
    const publicKey = simulatorPublicKey(credentials.apiKeySecret);
    const token = await signCdpJwt(credentials.apiKeyId, key, REQUEST);
    await expect(checkCdpJwt(`Bearer ${token}`, credentials.apiKeyId, publicKey, REQUEST)).resolves.toEqual({ ok: true });
    await expect(
      checkCdpJwt(`Bearer ${token}`, credentials.apiKeyId, publicKey, { ...REQUEST, path: '/onramp/v1/token' }),
    ).resolves.toMatchObject({ ok: false });
    await expect(checkCdpJwt(`Bearer ${token}`, 'another key', publicKey, REQUEST)).resolves.toMatchObject({ ok: false });
    const other = simulatorPublicKey(COINBASE_SIMULATOR_CREDENTIALS.apiKeySecret);
    await expect(checkCdpJwt(`Bearer ${token}`, credentials.apiKeyId, other, REQUEST)).resolves.toMatchObject({ ok: false });
  });
});
