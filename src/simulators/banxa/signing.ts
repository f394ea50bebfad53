import { createHmac } from 'node:crypto';

export interface BanxaSigningKey {
  apiKey: string;
  apiSecret: string;
}

/**
 * The Authorization header Banxa puts on a webhook: `Bearer <key>:<signature>:<nonce>`, the signature
 * being hex HMAC-SHA256 (secret as key) over method, path, nonce and compact JSON body, one per line.
 */
export function banxaAuthorization(key: BanxaSigningKey, request: { method: string; path: string; body?: string }, nonce: number): string {
  const lines = [request.method, request.path, String(nonce), ...(request.body === undefined ? [] : [request.body])];
  const signature = createHmac('sha256', key.apiSecret).update(lines.join('\n')).digest('hex');
  return `Bearer ${key.apiKey}:${signature}:${nonce}`;
}
