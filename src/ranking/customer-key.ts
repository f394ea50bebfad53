import { createHmac } from 'node:crypto';

/**
 * The only name a returning customer is kept under: HMAC-SHA256 over the integrator's id and its
 * `external_user_id` (hex), keyed with RANKING_CUSTOMER_KEY. The same user id under two
 * integrators is two customers; without the key nobody can tell whose a stored entry is.
 */
export function customerKey(secret: string, integratorId: string, externalUserId: string): string {
  return createHmac('sha256', secret).update(`${integratorId}\n${externalUserId}`).digest('hex');
}
