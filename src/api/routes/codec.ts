import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type IRouter, type RequestHandler } from 'express';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { z } from 'zod';
import { methodNotAllowed, ProblemError, validationProblem } from '../problem';

export interface CodecEndpointOptions {
  codec: PayloadCodec;
  /** The bearer token required; absent only with the published development key (src/config/encryption.ts). */
  token?: string;
  /** Origins whose browsers may call the endpoint (the Temporal Web UI's). */
  corsOrigins: string[];
}

/** A payload as the codec server protocol carries it: protobuf JSON, bytes in base64. */
const JsonPayloadSchema = z.object({
  metadata: z.record(z.string(), z.base64()).optional(),
  data: z.base64().optional(),
});
const CodecBodySchema = z.object({ payloads: z.array(JsonPayloadSchema) });
type JsonPayload = z.infer<typeof JsonPayloadSchema>;

const fromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data ?? '', 'base64'),
});

const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v ?? []).toString('base64')])),
  data: Buffer.from(p.data ?? []).toString('base64'),
});

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="onramp-broker-codec"' };
const digest = (value: string) => createHash('sha256').update(value).digest();

function requireToken(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return function requireCodecToken(req, _res, next) {
    if (expected === undefined) return next();
    const presented = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (presented === undefined)
      return next(new ProblemError('unauthorized', 'Send the codec token as Authorization: Bearer <token>.', undefined, CHALLENGE));
    if (!timingSafeEqual(digest(presented), expected))
      return next(new ProblemError('unauthorized', 'The codec token is not valid.', undefined, CHALLENGE));
    next();
  };
}

/** CORS for the Web UI: its origin only; a preflight from any other gets no CORS headers, so its browser refuses. */
function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return function codecCors(req, res, next) {
    res.vary('Origin');
    const origin = req.headers.origin;
    if (origin !== undefined && allowed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    if (req.method !== 'OPTIONS') return next();
    if (res.hasHeader('Access-Control-Allow-Origin')) {
      res.setHeader('Access-Control-Allow-Methods', 'POST');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Namespace');
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.status(204).end();
  };
}

/**
 * The codec server of the Temporal Web UI and CLI (`--codec-endpoint <base>/codec`): POST
 * /codec/encode and /codec/decode turn `{payloads}` through the broker's codec. It decrypts any
 * payload it is sent, so it is authenticated and, for browsers, limited to the UI's origin.
 */
export function codecRoutes(router: IRouter, options: CodecEndpointOptions): void {
  const body = express.json({ limit: '4mb' });
  for (const direction of ['encode', 'decode'] as const) {
    router
      .route(`/codec/${direction}`)
      .options(cors(options.corsOrigins))
      .post(cors(options.corsOrigins), requireToken(options.token), body, async (req, res) => {
        const parsed = CodecBodySchema.safeParse(req.body);
        if (!parsed.success) throw validationProblem(parsed.error, 'codec request');
        let payloads: Payload[];
        try {
          payloads = await options.codec[direction](parsed.data.payloads.map(fromJson));
        } catch (err) {
          throw new ProblemError('validation_error', `A payload cannot be ${direction}d: ${(err as Error).message}.`);
        }
        res.json({ payloads: payloads.map(toJson) });
      })
      .all(methodNotAllowed(['POST', 'OPTIONS']));
  }
}
