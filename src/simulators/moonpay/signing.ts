import { createHmac, timingSafeEqual } from 'node:crypto';

/** `Moonpay-Signature-V2` for a webhook body: `t=<unix seconds>,s=<hex HMAC-SHA256(webhook key, "<t>.<body>")>`. */
export function moonpayWebhookSignature(webhookKey: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},s=${createHmac('sha256', webhookKey).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

const SIGNATURE_PARAM = '&signature=';

export type WidgetQueryCheck = { ok: true; params: URLSearchParams } | { ok: false; message: 'Missing signature' | 'Invalid signature' };

/**
 * Checks a widget URL's query string as MoonPay does: `signature` comes last, and is the base64
 * HMAC-SHA256 (secret key) of everything before it, leading `?` included. An unsigned query is
 * accepted only without a wallet address.
 */
export function checkWidgetQuery(secretKey: string, rawQuery: string): WidgetQueryCheck {
  const at = rawQuery.lastIndexOf(SIGNATURE_PARAM);
  if (at < 0) {
    const params = new URLSearchParams(rawQuery);
    return params.has('walletAddress') || params.has('walletAddresses')
      ? { ok: false, message: 'Missing signature' }
      : { ok: true, params };
  }
  const signed = rawQuery.slice(0, at);
  let given: Buffer;
  try {
    given = Buffer.from(decodeURIComponent(rawQuery.slice(at + SIGNATURE_PARAM.length)), 'base64');
  } catch {
    return { ok: false, message: 'Invalid signature' };
  }
  const expected = createHmac('sha256', secretKey).update(signed).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, message: 'Invalid signature' };
  return { ok: true, params: new URLSearchParams(signed) };
}
