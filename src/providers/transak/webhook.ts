import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import type { CurrencyDictionary } from '../../domain/currency';
import { eventDigest, parseJson, parseSigned, webhookReport } from '../kit/webhook';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook, type ProviderWebhookEvent } from '../types';
import { TransakWebhookBodySchema, TransakWebhookClaimsSchema } from './schemas';
import { fromOrder } from './transformers';

/** A signed webhook older than this (by its `iat`, where it has one) is refused as a replay. */
export const TRANSAK_WEBHOOK_MAX_AGE_SECONDS = 24 * 60 * 60;
const CLOCK_TOLERANCE_SECONDS = 60;

/** The tokens a webhook may be signed with, newest first; may refresh the access token to get one. */
export type AccessTokenSource = readonly string[] | (() => Promise<readonly string[]>);

/**
 * Verifies a Transak webhook: the body is `{"data": "<JWT>"}`, HS256-signed with the partner access
 * token (guides/how-to-decrypt-webhook-payload). Only HS256 is accepted; `exp` and `iat` are
 * enforced when present. The token's shape (an HS256 JWT carrying an order event) is checked before
 * `accessTokens` is asked for the tokens the sender may have used, since asking may refresh the
 * access token, and anyone can POST a webhook. Buy and sell orders' webhooks are verified alike;
 * resolves with the verified claims.
 */
export async function verifyTransakWebhook(webhook: IncomingWebhook, accessTokens: AccessTokenSource, now: Date): Promise<JWTPayload> {
  const token = jwtOf(webhook.rawBody);
  const unverified = checkShape(token);
  const keys = typeof accessTokens === 'function' ? await accessTokens() : accessTokens;
  return verifyWithAny(token, unverified, keys, now);
}

/**
 * Whether the verified claims are about a sell (off-ramp) order: `webhookData.isBuyOrSell` is `SELL`.
 * Read from the unverified token only to route a webhook (isTransakSellWebhook), never to act on it.
 */
export function marksSell(claims: unknown): boolean {
  if (typeof claims !== 'object' || claims === null) return false;
  const data = (claims as { webhookData?: unknown }).webhookData;
  return typeof data === 'object' && data !== null && (data as { isBuyOrSell?: unknown }).isBuyOrSell === 'SELL';
}

/**
 * Verifies a Transak webhook (verifyTransakWebhook) and parses a buy order's event. A verified sell
 * order's event is not one: IgnoredWebhookError (the sell adapter's parser reads it), so nothing of
 * a sell reaches a buy order.
 */
export async function parseTransakWebhook(
  webhook: IncomingWebhook,
  accessTokens: AccessTokenSource,
  dictionary: CurrencyDictionary,
  now: Date = new Date(),
): Promise<ProviderWebhookEvent> {
  const payload = await verifyTransakWebhook(webhook, accessTokens, now);
  if (marksSell(payload)) throw new IgnoredWebhookError('a SELL order event: not about a buy order');
  const claims = parseSigned(payload, TransakWebhookClaimsSchema, 'signed payload is not a Transak order event');
  const order = claims.webhookData;
  const snapshot = webhookReport(() => fromOrder(order, dictionary));
  // No event id is documented; the same event delivered again digests the same.
  const eventId = eventDigest(JSON.stringify([snapshot.providerOrderId, claims.eventID, order.status, order.updatedAt ?? '']));
  return { ...snapshot, eventId };
}

/** The token of a webhook body, unverified: only to route the webhook, never to act on. */
export function unverifiedClaims(rawBody: Buffer): JWTPayload | undefined {
  try {
    return decodeJwt(jwtOf(rawBody));
  } catch {
    return undefined;
  }
}

/** An HS256 JWT whose (unverified) claims are a Transak order event; its claims. */
function checkShape(token: string): JWTPayload {
  let header: ProtectedHeaderParameters;
  let claims: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    throw new WebhookVerificationError('"data" is not a JWT');
  }
  if (header.alg !== 'HS256') throw new WebhookVerificationError('webhook token is not signed with HS256');
  parseSigned(claims, TransakWebhookClaimsSchema, 'webhook token does not carry a Transak order event');
  return claims;
}

function jwtOf(rawBody: Buffer): string {
  return parseSigned(parseJson(rawBody, 'body is not JSON'), TransakWebhookBodySchema, 'body carries no "data" token').data;
}

async function verifyWithAny(token: string, unverified: JWTPayload, keys: readonly string[], now: Date): Promise<JWTPayload> {
  const options = {
    algorithms: ['HS256'],
    currentDate: now,
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    ...(unverified.iat === undefined ? {} : { maxTokenAge: TRANSAK_WEBHOOK_MAX_AGE_SECONDS }),
  };
  for (const key of keys) {
    try {
      return (await jwtVerify(token, new TextEncoder().encode(key), options)).payload;
    } catch (err) {
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) continue;
      if (err instanceof joseErrors.JWTExpired) throw new WebhookVerificationError('webhook token has expired or is too old');
      throw new WebhookVerificationError(`webhook token refused: ${(err as Error).message}`);
    }
  }
  throw new WebhookVerificationError('signature does not match the partner access token');
}
