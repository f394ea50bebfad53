import { request, type Dispatcher } from 'undici';
import { providerRequestDuration, providerRequests } from '../../metrics/metrics';
import { activeTracing, inSpan, SpanKind } from '../../tracing';
import { ProviderUnavailableError } from '../types';
import type { ProviderCall } from './operation';

/** What a provider answer may weigh unless the call says otherwise: far above any real answer. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface ProviderResponse {
  status: number;
  body: unknown;
}

export interface ProviderRequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  json?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of the answer's body read at most; a longer answer fails the call. DEFAULT_MAX_BODY_BYTES by default. */
  maxBodyBytes?: number;
  /** The provider and what the call is for: its metrics' and span's labels (unknown/other when absent). */
  call?: ProviderCall;
}

/** A URL as errors name it: its path, without host or query (where credentials may ride). */
export const pathOf = (url: string): string => new URL(url).pathname;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

class BodyOverCapError extends Error {}

/** The body as text, read no further than `cap` bytes (a declared Content-Length over it is not read at all). */
async function readCapped(response: Dispatcher.ResponseData, cap: number): Promise<string> {
  const declared = Number(response.headers['content-length']);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    if (declared > cap) throw new BodyOverCapError();
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > cap) throw new BodyOverCapError();
      chunks.push(chunk);
    }
  } catch (err) {
    response.body.destroy();
    throw err;
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/**
 * One HTTP call to a provider (undici, keep-alive connections). Network errors, timeouts and 5xx
 * answers become ProviderUnavailableError (worth retrying); any other answer is returned with its
 * parsed body. The body is read up to `maxBodyBytes`: a provider answering without end fails the
 * call instead of filling the process's memory.
 *
 * `timeoutMs` bounds the wait for the answer's headers and each wait for more of its body, with
 * undici's own timers. (An AbortSignal.timeout per call, combined with the caller's signal, kept
 * its timer and listeners alive long after a fast answer and built a DOMException when it fired;
 * offers make several provider calls per request, and that was a visible share of the API's CPU.)
 */
export function providerRequest(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
  return activeTracing() ? tracedRequest(url, options) : countedRequest(url, options);
}

/** The call as a client span (tracing on): its provider, operation, method, host, path (no query) and status. */
function tracedRequest(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
  const { call } = options;
  const method = options.method ?? 'GET';
  const { host, pathname } = new URL(url);
  const attributes = {
    'onramp.provider': call?.provider ?? 'unknown',
    'onramp.provider.operation': call?.operation ?? 'other',
    'http.request.method': method,
    'server.address': host,
    'url.path': pathname,
  };
  return inSpan(
    `${method} ${attributes['onramp.provider']} ${attributes['onramp.provider.operation']}`,
    SpanKind.CLIENT,
    attributes,
    async (span) => {
      const response = await countedRequest(url, options);
      span.setAttribute('http.response.status_code', response.status);
      return response;
    },
  );
}

async function countedRequest(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
  const started = performance.now();
  let outcome = 'error';
  try {
    const response = await send(url, options);
    outcome = response.status < 400 ? 'ok' : 'refused';
    return response;
  } catch (err) {
    outcome = (err instanceof Error && outcomes.get(err)) || 'error';
    throw err;
  } finally {
    const provider = options.call?.provider ?? 'unknown';
    const operation = options.call?.operation ?? 'other';
    providerRequests.inc({ provider, operation, outcome });
    providerRequestDuration.observe({ provider, operation }, (performance.now() - started) / 1000);
  }
}

/** The outcome each failed call's metric counts (timeout, aborted, server_error, error), beside its error. */
const outcomes = new WeakMap<Error, string>();

function unavailable(message: string, outcome: string): ProviderUnavailableError {
  const err = new ProviderUnavailableError(message);
  outcomes.set(err, outcome);
  return err;
}

async function send(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
  const method = options.method ?? 'GET';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let status: number;
  let text: string;
  try {
    const response = await request(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal: options.signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    status = response.statusCode;
    text = await readCapped(response, maxBodyBytes);
  } catch (err) {
    const timedOut = TIMEOUT_CODES.has((err as { code?: string }).code ?? '');
    const aborted = !timedOut && !(err instanceof BodyOverCapError) && options.signal?.aborted === true;
    const reason = timedOut
      ? `timed out after ${options.timeoutMs} ms`
      : err instanceof BodyOverCapError
        ? `answer is over the ${maxBodyBytes}-byte cap`
        : aborted
          ? 'aborted'
          : (err as Error).message;
    throw unavailable(`${method} ${pathOf(url)}: ${reason}`, timedOut ? 'timeout' : aborted ? 'aborted' : 'error');
  }
  if (status >= 500) throw unavailable(`${method} ${pathOf(url)}: HTTP ${status}`, 'server_error');
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw unavailable(`${pathOf(url)}: answer is not JSON (HTTP ${status})`, 'error');
    }
  }
  return { status, body };
}
