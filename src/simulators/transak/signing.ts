import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';

const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * A partner access token shaped like Transak's: an HS256 JWT with `API_KEY`, `iat` and `exp`, plus a
 * `jti` so two tokens issued within one second differ (each one invalidates the one before).
 */
export function signAccessToken(issuerSecret: string, apiKey: string, issuedAt: number, expiresAt: number): Promise<string> {
  return new SignJWT({ API_KEY: apiKey })
    .setJti(randomUUID())
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key(issuerSecret));
}

/** The `data` of a webhook body: the event's claims, HS256-signed with the partner's access token. */
export function signWebhookData(accessToken: string, claims: Record<string, unknown>, issuedAt: number): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(issuedAt).sign(key(accessToken));
}
