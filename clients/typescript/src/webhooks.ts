import type { IncomingMessage, ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { ProblemError } from './problem.js';
import type { Order, SellOrder } from './types.js';

/**
 * `order.status_changed` about a buy order: the order as GET /api/on_ramp/orders/{provider_code}
 * returns it, and its `sequence`. A buy order's data carries no `kind`.
 */
export interface OrderStatusChangedEvent {
  type: 'order.status_changed';
  timestamp: string;
  data: Order & { sequence: number; kind?: never };
}

/**
 * `order.status_changed` about a sell order (`data.kind` is `"off_ramp"`): the order as
 * GET /api/off_ramp/orders/{provider_code} returns it, and its `sequence`.
 */
export interface SellOrderStatusChangedEvent {
  type: 'order.status_changed';
  timestamp: string;
  data: SellOrder & { sequence: number };
}

/** `webhook.test`: sent on request by POST /api/on_ramp/webhooks/test; no order changed. */
export interface WebhookTestEvent {
  type: 'webhook.test';
  timestamp: string;
  data: { integrator_id: string; webhook_id: string; message: string };
}

export type WebhookEvent = OrderStatusChangedEvent | SellOrderStatusChangedEvent | WebhookTestEvent;

/** Whether the event is a sell order's status change (`data.kind === "off_ramp"`). */
export function isSellOrderEvent(event: WebhookEvent): event is SellOrderStatusChangedEvent {
  return event.type === 'order.status_changed' && event.data.kind === 'off_ramp';
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function headerRecord(headers: WebhookHeaders): Record<string, string> {
  const entries: [string, string | string[] | undefined][] = [];
  if (typeof Headers !== 'undefined' && headers instanceof Headers) headers.forEach((value, key) => entries.push([key, value]));
  else entries.push(...Object.entries(headers));
  return Object.fromEntries(
    entries
      .filter((e): e is [string, string | string[]] => e[1] !== undefined)
      .map(([k, v]) => [k.toLowerCase(), String(Array.isArray(v) ? v[0] : v)]),
  );
}

/**
 * Verifies a broker webhook (Standard Webhooks: signature and a timestamp within 5 minutes) on its
 * raw body, before anything parses it, and returns the typed event: a buy order's or a sell order's
 * (`isSellOrderEvent`) status change, or a test. An `invalid_signature` problem otherwise; an
 * `invalid_response` one for an event type or order kind this client does not know.
 */
export function verifyWebhook(headers: WebhookHeaders, rawBody: string | Uint8Array, secret: string): WebhookEvent {
  const body = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  let event: unknown;
  try {
    event = new Webhook(secret).verify(body, headerRecord(headers));
  } catch (err) {
    throw new ProblemError({ code: 'invalid_signature', status: 401, title: 'Invalid webhook signature', detail: (err as Error).message });
  }
  const type = (event as { type?: unknown } | null)?.type;
  if (type !== 'order.status_changed' && type !== 'webhook.test') {
    throw ProblemError.client('invalid_response', `unknown webhook event type ${JSON.stringify(type)}`);
  }
  // A kind this client does not know would otherwise be read as a buy order (which carries no kind).
  const kind = type === 'order.status_changed' ? (event as { data?: { kind?: unknown } }).data?.kind : undefined;
  if (kind !== undefined && kind !== 'off_ramp') {
    throw ProblemError.client('invalid_response', `unknown order kind ${JSON.stringify(kind)}`);
  }
  return event as WebhookEvent;
}

type Next = (err?: unknown) => void;

/** The largest webhook body the middleware reads (an order event is a few KB): larger is `413`, unread. */
export const MAX_WEBHOOK_BODY_BYTES = 256 * 1024;

/**
 * An Express (or plain Node) handler for your webhook endpoint: reads the raw body (or takes the
 * Buffer of `express.raw()`), verifies it, hands the event to `onEvent` and answers `204`. A message
 * that does not verify is `400` and never reaches `onEvent`; a body over MAX_WEBHOOK_BODY_BYTES is
 * `413` and one cut off by the sender `400`; when `onEvent` fails the answer is `500`, so the broker
 * sends the message again (use `webhook-id` to drop repeats). Mount it before any JSON body parser:
 * the signature is over the raw bytes.
 */
export function webhookMiddleware(
  secret: string,
  onEvent: (event: WebhookEvent, req: IncomingMessage) => unknown,
): (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next?: Next) => void {
  return (req, res) => {
    void (async () => {
      let raw: Buffer;
      try {
        raw = Buffer.isBuffer(req.body) ? req.body : typeof req.body === 'string' ? Buffer.from(req.body) : await readBody(req);
      } catch (err) {
        if (err instanceof BodyTooLarge) answer(res, 413, { code: 'payload_too_large', detail: `over ${MAX_WEBHOOK_BODY_BYTES} bytes` });
        else answer(res, 400, { code: 'invalid_body', detail: 'the body could not be read' });
        return;
      }
      let event: WebhookEvent;
      try {
        event = verifyWebhook(req.headers, raw, secret);
      } catch (err) {
        answer(res, 400, { code: (err as ProblemError).code, detail: (err as ProblemError).detail });
        return;
      }
      try {
        await onEvent(event, req);
        res.writeHead(204).end();
      } catch {
        answer(res, 500, { code: 'handler_failed', detail: 'the event handler failed; send it again' });
      }
    })().catch(() => {
      // Nothing above throws past its own answer; a connection already gone leaves nothing to answer.
      if (!res.headersSent) res.destroy();
    });
  };
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_WEBHOOK_BODY_BYTES) {
    req.resume();
    throw new BodyTooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_WEBHOOK_BODY_BYTES) {
      req.resume();
      throw new BodyTooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function answer(res: ServerResponse, status: number, body: { code: string; detail: string }): void {
  res.writeHead(status, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ status, ...body }));
}
