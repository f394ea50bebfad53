/**
 * Attack: malformed provider webhooks. Anyone can post to /api/webhooks/{provider_code}, and some
 * signing keys are public (the sandbox's and every simulator's development secrets are in the
 * repository), so a parser sees arbitrary bodies, headers and query strings, some of them genuinely
 * signed. For every provider of the manifest, fast-check (seeded) posts a few hundred such webhooks
 * through real HTTP to the real API, with the simulated providers and a Temporal dev server behind
 * it: genuine signed events with a field replaced, removed or nested deep and signed again, bodies
 * that are not JSON (truncated, random bytes, other encodings), signed or not, and mangled or missing
 * signature headers, content types and query strings. Every answer is below 500, conforms to the
 * OpenAPI document, and a refusal is problem+json with its code; no promise is left rejected.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { PROBLEM_CODES } from '../../src/api/problem';
import { DEV_SANDBOX_WEBHOOK_SECRET } from '../../src/config';
import { PROVIDER_CODES, type ProviderCode } from '../../src/providers/manifest';
import { forgedWebhook } from '../helpers/forged-webhooks';
import { expectResponseConforms } from '../helpers/openapi';
import { PROVIDER_TEST_KITS } from '../helpers/providers';
import { useTestStack } from '../helpers/stack';
import { signedSandboxWebhook } from '../helpers/webhooks';

const RUNS_PER_PROVIDER = 200;
const SEED = 21;
const TEMPLATE = '/api/webhooks/{provider_code}';

jest.setTimeout(120_000);

const started = useTestStack();

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
});

/** A genuine event of the provider's shape (the forged webhooks' bodies; the sandbox's own). */
async function genuineBody(code: ProviderCode, orderId: string): Promise<string> {
  if (code === 'sandbox') {
    return signedSandboxWebhook(
      DEV_SANDBOX_WEBHOOK_SECRET,
      { id: 'sb-1', partner_order_id: orderId, status: 'COMPLETED' },
      `evt-${randomUUID()}`,
    ).body;
  }
  return (await forgedWebhook(code, orderId)).body;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value in `json`, the root first. */
function paths(json: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const children =
    json !== null && typeof json === 'object'
      ? Array.isArray(json)
        ? json.flatMap((value, i) => paths(value, [...prefix, i]))
        : Object.entries(json).flatMap(([key, value]) => paths(value, [...prefix, key]))
      : [];
  return [prefix, ...children];
}

/** `json` with the value at `path` replaced by `replace(old)`, or removed when that gives undefined. */
function edit(json: Json, path: (string | number)[], replace: (old: Json) => Json | undefined): Json | undefined {
  if (path.length === 0) return replace(json);
  const [head, ...rest] = path;
  const copy: any = Array.isArray(json) ? [...json] : { ...(json as object) };
  const value = edit(copy[head!], rest, replace);
  if (value === undefined) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head!];
  } else copy[head!] = value;
  return copy;
}

/** A mutation of a JSON event: one value replaced, removed, buried deep or turned into a string. */
const jsonMutation = fc.record({
  pick: fc.nat(),
  op: fc.constantFrom('replace', 'remove', 'nest', 'stringify'),
  value: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
  depth: fc.integer({ min: 1, max: 5000 }),
});
type JsonMutation = typeof jsonMutation extends fc.Arbitrary<infer T> ? T : never;

/**
 * The JSON text of `json` with `mutations` applied. A value buried deep is spliced into the text
 * (`{"a":[` … `]}` `depth` times), so that neither this test nor JSON.stringify recurses that deep.
 */
function mutatedJsonText(json: Json, mutations: JsonMutation[]): string {
  const buried: string[] = [];
  let current: Json | undefined = json;
  for (const m of mutations) {
    const all = paths(current ?? null);
    const path = all[m.pick % all.length]!;
    current = edit(current ?? null, path, (old) => {
      switch (m.op) {
        case 'replace':
          return m.value;
        case 'remove':
          return undefined;
        case 'nest':
          buried.push(`${'{"a":['.repeat(m.depth)}${JSON.stringify(old)}${']}'.repeat(m.depth)}`);
          return `\u0000buried-${buried.length - 1}`;
        default:
          return JSON.stringify(old) ?? 'null';
      }
    });
  }
  let text = JSON.stringify(current ?? null);
  // Later burials may hold earlier ones: splice the newest first.
  for (let i = buried.length - 1; i >= 0; i--) text = text.replace(`"\\u0000buried-${i}"`, () => buried[i]!);
  return text;
}

/** A raw body: a mutated genuine event, JSON of another shape, or no JSON at all. */
const bodyCase = fc.oneof(
  fc.record({ kind: fc.constant('mutated' as const), mutations: fc.array(jsonMutation, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }) }),
  fc.record({ kind: fc.constant('truncated' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ maxLength: 512 }) }),
  fc.record({ kind: fc.constant('text' as const), text: fc.string({ unit: 'grapheme', maxLength: 200 }) }),
  fc.record({ kind: fc.constant('utf16' as const) }),
  fc.record({ kind: fc.constant('large' as const), size: fc.integer({ min: 200_000, max: 300_000 }) }),
);

/** Printable ASCII, which fetch accepts in a header value. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 });

const webhookCase = fc.record({
  orderId: fc.oneof(fc.uuid(), fc.string({ maxLength: 80 })),
  body: bodyCase,
  /** Sign the raw body with the key the broker trusts (when the provider's scheme allows), or not. */
  signed: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, fc.constant(false)),
  /** Mostly kept, so that most bodies reach the parser behind the signature check. */
  signature: fc.oneof(
    { weight: 6, arbitrary: fc.constant({ kind: 'keep' as const }) },
    fc.constant({ kind: 'drop' as const }),
    fc.record({ kind: fc.constant('replace' as const), value: headerText }),
    fc.record({ kind: fc.constant('append' as const), value: headerText }),
  ),
  contentType: fc.oneof(
    { weight: 4, arbitrary: fc.constant('application/json') },
    fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', undefined),
  ),
  extraHeaders: fc.option(
    fc.dictionary(
      fc.constantFrom(
        'x-signature',
        'authorization',
        'moonpay-signature-v2',
        'x-body-signature',
        'sandbox-signature',
        'content-encoding',
        'x-forwarded-for',
      ),
      headerText,
      { maxKeys: 3 },
    ),
    { freq: 3 },
  ),
  query: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    fc
      .dictionary(fc.constantFrom('order_id', 'order_mac', 'a', 'order_id[]', 'order_mac[x]'), fc.string({ maxLength: 40 }), { maxKeys: 3 })
      .map((q) => `?${new URLSearchParams(q).toString()}`),
    fc.constant('?order_id=a&order_id=b&order_mac=c&order_mac=d'),
  ),
});

type WebhookCase = typeof webhookCase extends fc.Arbitrary<infer T> ? T : never;

async function rawBody(code: ProviderCode, c: WebhookCase): Promise<Buffer | string> {
  const genuine = await genuineBody(code, c.orderId);
  switch (c.body.kind) {
    case 'mutated': {
      return mutatedJsonText(JSON.parse(genuine) as Json, c.body.mutations);
    }
    case 'json':
      return JSON.stringify(c.body.value);
    case 'truncated':
      return genuine.slice(0, c.body.at % genuine.length);
    case 'bytes':
      return Buffer.from(c.body.bytes);
    case 'text':
      return c.body.text;
    case 'utf16':
      return Buffer.from(genuine, 'utf16le');
    case 'large':
      return JSON.stringify({ ...(JSON.parse(genuine) as object), padding: 'x'.repeat(c.body.size) });
  }
}

async function post(
  code: ProviderCode,
  c: WebhookCase,
): Promise<{ status: number; headers: Record<string, string>; body: unknown; text: string }> {
  const body = await rawBody(code, c);
  // Signed with the keys the broker trusts in this stack (the simulators' development credentials).
  const signing = PROVIDER_TEST_KITS[code].signWebhook(Buffer.isBuffer(body) ? body.toString('latin1') : body, c.orderId);
  const headers = new Headers();
  if (c.contentType) headers.set('content-type', c.contentType);
  for (const [name, value] of Object.entries(c.extraHeaders ?? {})) headers.set(name, value);
  if (c.signed) for (const [name, value] of Object.entries(signing.headers)) headers.set(name, value);
  const [signatureHeader] = Object.keys(signing.headers);
  if (signatureHeader) {
    if (c.signature.kind === 'drop') headers.delete(signatureHeader);
    else if (c.signature.kind === 'replace') headers.set(signatureHeader, c.signature.value);
    else if (c.signature.kind === 'append') headers.append(signatureHeader, c.signature.value);
  }
  const query = c.query ?? (c.signed ? signing.query : '');
  // A scheme that signs inside the body (Alchemy Pay) gives the body to send, signed.
  const sent = c.signed && signing.body !== undefined ? signing.body : body;
  const response = await fetch(`${started.stack.apiUrl}/api/webhooks/${code}${query}`, { method: 'POST', headers, body: sent });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the assertions below say so.
  }
  return { status: response.status, headers: Object.fromEntries(response.headers), body: parsed, text };
}

describe.each(PROVIDER_CODES)('webhooks of %s', (code) => {
  test(`${RUNS_PER_PROVIDER} malformed webhooks: no 5xx, every refusal a problem+json with its code, nothing left rejected`, async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(webhookCase, async (c) => {
        const res = await post(code, c);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) throw new Error(`${res.status}: ${res.text}`);
        if (res.status >= 300) {
          expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(Object.keys(PROBLEM_CODES)).toContain((res.body as { code?: string }).code);
          // A refusal: the signature or the body (400, 401, 413, 415), a text of a verified event over its
          // bound (422 event_out_of_bounds), or, where the adapter reads the order the event names from the
          // provider, the provider does not know it (422).
          const outOfBounds = res.status === 422 && (res.body as { code?: string }).code === 'event_out_of_bounds';
          const readsOrder = PROVIDER_TEST_KITS[code].readsOrderForWebhook === true;
          expect([400, 401, 413, 415, ...(outOfBounds || readsOrder ? [422] : [])]).toContain(res.status);
        }
        expectResponseConforms('POST', TEMPLATE, res);
        expect(unhandled).toEqual([]);
      }),
      { numRuns: RUNS_PER_PROVIDER, seed: SEED + PROVIDER_CODES.indexOf(code), endOnFailure: true },
    );
    // Give a rejection left behind by the last request a turn to surface.
    await new Promise((r) => setTimeout(r, 100));
    expect(unhandled).toEqual([]);
    // The fuzz reached past the signature check: some signed bodies were read and refused or accepted.
    expect(statuses.get(401)).toBeGreaterThan(0);
    if (code !== 'transak') expect([...statuses.keys()].some((s) => s !== 401)).toBe(true);
  });
});
