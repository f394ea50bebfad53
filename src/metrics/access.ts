import { timingSafeEqual, createHash } from 'node:crypto';

/**
 * Whether a request may read the metrics: always when no token is configured, otherwise only with
 * `Authorization: Bearer <token>` (compared in constant time, through digests of equal length).
 */
export function metricsAuthorized(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!match) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
