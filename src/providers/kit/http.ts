import { request, type Dispatcher } from 'undici';
import { ProviderUnavailableError } from '../types';

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
export async function providerRequest(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
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
    const reason = TIMEOUT_CODES.has((err as { code?: string }).code ?? '')
      ? `timed out after ${options.timeoutMs} ms`
      : err instanceof BodyOverCapError
        ? `answer is over the ${maxBodyBytes}-byte cap`
        : options.signal?.aborted
          ? 'aborted'
          : (err as Error).message;
    throw new ProviderUnavailableError(`${method} ${pathOf(url)}: ${reason}`);
  }
  if (status >= 500) throw new ProviderUnavailableError(`${method} ${pathOf(url)}: HTTP ${status}`);
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ProviderUnavailableError(`${pathOf(url)}: answer is not JSON (HTTP ${status})`);
    }
  }
  return { status, body };
}
