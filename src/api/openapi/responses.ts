/** Building blocks of the documented responses, shared by the path registrations beside the routes. */
import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import * as S from '../schemas';
import { headers, RATE_LIMIT_HEADERS, type HeaderName } from './headers';

type Responses = RouteConfig['responses'];

export const json = (schema: ZodType) => ({ 'application/json': { schema } });

export function ok(description: string, schema: ZodType, extra: HeaderName[] = []): ResponseConfig {
  return { description, headers: headers(...RATE_LIMIT_HEADERS, ...extra), content: json(schema) };
}

/** The 503 of a route that reads one order: Temporal unreachable, or the order's records unreadable (src/orders/errors.ts). */
export const UNREADABLE_503 =
  "`service_unavailable`: Temporal cannot be reached, or the order's stored records cannot be decoded by the broker (an encryption setting; Retry-After 60).";

export function problem(status: number, description: string, extra: HeaderName[] = []): ResponseConfig {
  return {
    description,
    headers: headers(...extra),
    content: { 'application/problem+json': { schema: S.problemFor(status) } },
  };
}

/** Only the dictionaries carry a validator; every other answer is no-store and never 304. */
export const NOT_MODIFIED: ResponseConfig = {
  description: 'Not modified: If-None-Match matched the ETag of the current answer.',
  headers: headers('ETag', 'Cache-Control'),
};

/** Over the per-client-address limit, which every /api route has, authenticated or not. */
export const ADDRESS_RATE_LIMITED = problem(429, '`rate_limited`: more requests than the client address may make in the window.', [
  'Retry-After',
  ...RATE_LIMIT_HEADERS,
]);

/** Answers every authenticated /api route can give. */
export const AUTHENTICATED: Responses = {
  401: problem(401, '`unauthorized`: missing or invalid API key.', ['WWW-Authenticate']),
  429: problem(429, '`rate_limited`: more requests than the API key, or the client address, may make in the window.', [
    'Retry-After',
    ...RATE_LIMIT_HEADERS,
  ]),
  500: problem(500, '`internal_error`: an unexpected error; `request_id` identifies it in the logs.'),
};

export const BAD_QUERY = (detail: string) =>
  problem(400, `\`validation_error\`, \`ticker_not_allowed\`, \`unknown_currency\` or \`state_required\`: ${detail}`);

export const BODY_ERRORS: Responses = {
  413: problem(413, '`payload_too_large`: the body is over 64 KiB.'),
  415: problem(415, '`unsupported_media_type`: the body is not application/json.'),
};
