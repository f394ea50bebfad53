import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { WebhookVerificationError } from '../types';
import { UnknownProviderStatusError } from './status-map';

/** A webhook body as JSON; a body that is not JSON is refused like a bad signature. */
export function parseJson(body: Buffer | string, refusal = 'signed body is not JSON'): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError(refusal);
  }
}

/** Verified JSON in the shape of the provider's event `schema`; another shape is refused with `refusal`. */
export function parseSigned<S extends z.ZodType>(json: unknown, schema: S, refusal: string): z.output<S> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new WebhookVerificationError(refusal);
  return parsed.data;
}

/** A verified body as the provider's event `schema`: JSON of that shape, or refused like a bad signature. */
export function parseSignedJson<S extends z.ZodType>(body: Buffer | string, schema: S, refusal: string): z.output<S> {
  return parseSigned(parseJson(body), schema, refusal);
}

/**
 * What a verified webhook reports, read by `read`. A status the provider does not document refuses
 * the webhook like a bad signature (401): the provider keeps it and retries, and polling follows
 * the order meanwhile (docs/decisions.md, Unknown provider statuses).
 */
export function webhookReport<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof UnknownProviderStatusError) throw new WebhookVerificationError(`signed body reports ${err.message}`);
    throw err;
  }
}

/**
 * The event id of a provider whose events carry none: the SHA-256 (hex) of content that every
 * delivery of one event repeats, so a redelivery is recognised as a duplicate.
 */
export function eventDigest(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}
