/** The response headers of the OpenAPI document: its `headers` components, and references to them. */

const text = { type: 'string' } as const;

export const HEADERS = {
  'X-Request-Id': { description: 'The request id: yours when you sent a valid X-Request-Id, otherwise a new UUID.', schema: text },
  ETag: { description: 'Entity tag of the answer; send it back in If-None-Match to get 304 when nothing changed.', schema: text },
  'Cache-Control': { description: '`private, max-age=86400`: load the dictionary at start-up and keep it for a day.', schema: text },
  RateLimit: {
    description: 'Requests left in the current window and seconds until it resets (IETF draft-8), e.g. `"600-in-1min"; r=597; t=42`.',
    schema: text,
  },
  'RateLimit-Policy': {
    description: 'The quota and window of this API key (IETF draft-8), e.g. `"600-in-1min"; q=600; w=60`.',
    schema: text,
  },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } },
  'WWW-Authenticate': { description: '`Bearer realm="onramp-broker"` (the operator API: `realm="onramp-operator"`).', schema: text },
  'Content-Disposition': {
    description:
      'An export: `attachment; filename="orders-<from>-<to>.<format>"`; a daily summary in CSV: `attachment; filename="daily-summary-<date>.csv"`.',
    schema: text,
  },
} as const;

export type HeaderName = keyof typeof HEADERS;

export const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimit', 'RateLimit-Policy'];

/** References to X-Request-Id, which every answer carries, and to the named headers. */
export const headers = (...names: HeaderName[]) =>
  Object.fromEntries(['X-Request-Id' as const, ...names].map((name) => [name, { $ref: `#/components/headers/${name}` }]));
