// @peculiar/x509 resolves its parts through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
// Signs with Node's WebCrypto, which it finds as globalThis.crypto.
import * as x509 from '@peculiar/x509';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 86_400_000;

/** A certificate and its private key, both PEM. */
export interface Issued {
  cert: string;
  key: string;
}

export interface TestCa {
  cert: string;
  /** A server certificate for `dnsName`. */
  server(dnsName: string): Promise<Issued>;
  /** A client certificate (mTLS) named `commonName`. */
  client(commonName: string): Promise<Issued>;
}

async function keyPair(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
}

async function pemKey(key: webcrypto.CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

let serial = 1;

/** A certificate authority made now, in memory, valid for a day: tests never ship or reuse keys. */
export async function createTestCa(name: string): Promise<TestCa> {
  const validity = { notBefore: new Date(Date.now() - DAY_MS), notAfter: new Date(Date.now() + DAY_MS) };
  const caKeys = await keyPair();
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: (serial++).toString(16).padStart(2, '0'),
    name: `CN=${name}`,
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    ...validity,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const issue = async (commonName: string, extensions: x509.Extension[]): Promise<Issued> => {
    const keys = await keyPair();
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: (serial++).toString(16).padStart(2, '0'),
      subject: `CN=${commonName}`,
      issuer: caCert.subject,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: ALGORITHM,
      ...validity,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        await x509.AuthorityKeyIdentifierExtension.create(caCert),
        ...extensions,
      ],
    });
    return { cert: cert.toString('pem'), key: await pemKey(keys.privateKey) };
  };

  return {
    cert: caCert.toString('pem'),
    server: (dnsName) =>
      issue(dnsName, [
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: dnsName }]),
      ]),
    client: (commonName) => issue(commonName, [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])]),
  };
}
