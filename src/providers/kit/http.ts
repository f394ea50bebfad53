import { errors, getGlobalDispatcher, type Dispatcher } from 'undici';
import { providerRequestDuration, providerRequests } from '../../metrics/metrics';
import { PairCache } from '../../metrics/label-cache';
import { CounterSeries, HistogramSeries } from '../../metrics/series';
import { activeTracing, inSpan, SpanKind } from '../../tracing';
import { ProviderUnavailableError } from '../types';
import type { CallSignal } from './call-signal';
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
  signal?: CallSignal;
  /** Bytes of the answer's body read at most; a longer answer fails the call. DEFAULT_MAX_BODY_BYTES by default. */
  maxBodyBytes?: number;
  /** The provider and what the call is for: its metrics' and span's labels (unknown/other when absent). */
  call?: ProviderCall;
}

/** A URL as errors name it: its path, without host or query (where credentials may ride). */
export const pathOf = (url: string): string => new URL(url).pathname;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

class BodyOverCapError extends Error {}

/** A call's answer as read: its status and its body as text. */
interface RawAnswer {
  status: number;
  text: string;
}

/** Whether a raw header name (undici hands them over as bytes) is Content-Length, in any case. */
function isContentLength(name: Buffer | string): boolean {
  return name.length === 14 && name.toString('latin1').toLowerCase() === 'content-length';
}

/**
 * An http(s) URL without credentials or fragment whose path and query hold only characters the URL
 * parser keeps as they are, and no dot segment (`/.`, `/..`, `%2e`), which it would resolve: its
 * origin and path are the text itself.
 */
const PLAIN_URL =
  /^(?!.*\/(?:\.|%2[eE]))(https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?)(\/[A-Za-z0-9\-._~!$&()*+,;=:@/?%[\]]*)?$/;

/** The origin and path (with query) undici is asked for: a plain URL split as it is, any other through URL. */
function originAndPath(url: string): { origin: string; path: string } {
  const plain = PLAIN_URL.exec(url);
  if (plain) return { origin: plain[1]!, path: plain[2] ?? '/' };
  const { origin, pathname, search } = new URL(url);
  return { origin, path: `${pathname}${search}` };
}

/**
 * One call's answer as undici hands it over (its legacy handler interface, which undici passes to the
 * connection as it is): the chunks kept as they come and joined once at the end, read no further than
 * `cap` bytes (a declared Content-Length over it is not read at all); the caller's signal aborts the
 * call, before it is sent or at any point after. One object per call, its own abort listener too.
 */
class AnswerReader implements Dispatcher.DispatchHandler {
  private abortCall: ((err: Error) => void) | undefined;
  private failure: Error | undefined;
  private status = 0;
  private length = 0;
  private readonly chunks: Buffer[] = [];

  constructor(
    private readonly cap: number,
    private readonly signal: CallSignal | undefined,
    private readonly resolve: (answer: RawAnswer) => void,
    private readonly reject: (err: Error) => void,
  ) {
    signal?.addEventListener('abort', this);
  }

  /** The caller's signal aborted. */
  handleEvent(): void {
    this.stop(new errors.RequestAbortedError());
  }

  private stop(err: Error): false {
    this.failure ??= err;
    this.abortCall?.(this.failure);
    return false;
  }

  private settle(err: Error | undefined): void {
    this.signal?.removeEventListener('abort', this);
    if (err) return this.reject(err);
    const { chunks, length } = this;
    const text = length === 0 ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, length).toString('utf8');
    this.resolve({ status: this.status, text });
  }

  onConnect(abort: (err: Error) => void): void {
    this.abortCall = abort;
    if (this.failure) abort(this.failure);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // An informational answer (1xx) is not the answer.
    if (statusCode < 200) return true;
    this.status = statusCode;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      if (isContentLength(rawHeaders[i]!) && Number(rawHeaders[i + 1]!.toString()) > this.cap) return this.stop(new BodyOverCapError());
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.length += chunk.length;
    if (this.length > this.cap) return this.stop(new BodyOverCapError());
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.settle(this.failure);
  }

  onError(err: Error): void {
    this.settle(this.failure ?? err);
  }
}

/**
 * One request through undici's dispatcher (the same global dispatcher and connection pools as
 * undici's `request`), read by an AnswerReader. undici's `request` wraps each answer in a Readable
 * stream with its parsed headers, and reading that through an async iterator made promises per
 * chunk: about a fifth of what an offers request allocated (five provider calls each).
 */
function dispatch(url: string, options: ProviderRequestOptions, method: 'GET' | 'POST', cap: number): Promise<RawAnswer> {
  const { origin, path } = originAndPath(url);
  const { signal } = options;
  return new Promise<RawAnswer>((resolve, reject) => {
    if (signal?.aborted) return reject(new errors.RequestAbortedError());
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.json !== undefined) headers['content-type'] = 'application/json';
    if (options.headers) Object.assign(headers, options.headers);
    getGlobalDispatcher().dispatch(
      {
        origin,
        path,
        method,
        headers,
        body: options.json === undefined ? undefined : JSON.stringify(options.json),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      },
      new AnswerReader(cap, signal, resolve, reject),
    );
  });
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

/** The call, counted and timed when it ends (two reactions on its promise, not an async function per call). */
function countedRequest(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
  const started = performance.now();
  return send(url, options).then(
    (response) => {
      count(options, response.status < 400 ? 'ok' : 'refused', started);
      return response;
    },
    (err: Error) => {
      count(options, (err instanceof Error && outcomes.get(err)) || 'error', started);
      throw err;
    },
  );
}

function count(options: ProviderRequestOptions, outcome: string, started: number): void {
  const series = seriesByCall.get(options.call?.provider ?? 'unknown', options.call?.operation ?? 'other');
  series.withOutcome(outcome).inc();
  series.duration.observe((performance.now() - started) / 1000);
}

/** A call's metric series, made once per provider, operation and outcome and recorded in place by every call (src/metrics/series.ts). */
class CallSeries {
  private readonly call: { provider: string; operation: string };
  readonly duration: HistogramSeries;
  private readonly outcomes = new Map<string, CounterSeries>();

  constructor(provider: string, operation: string) {
    this.call = { provider, operation };
    this.duration = new HistogramSeries(providerRequestDuration, this.call);
  }

  withOutcome(outcome: string): CounterSeries {
    let series = this.outcomes.get(outcome);
    if (!series) this.outcomes.set(outcome, (series = new CounterSeries(providerRequests, { ...this.call, outcome })));
    return series;
  }
}

const seriesByCall = new PairCache((provider, operation) => new CallSeries(provider, operation));

/** The outcome each failed call's metric counts (timeout, aborted, server_error, error), beside its error. */
const outcomes = new WeakMap<Error, string>();

function unavailable(message: string, outcome: string): ProviderUnavailableError {
  const err = new ProviderUnavailableError(message);
  outcomes.set(err, outcome);
  return err;
}

/** The call and its answer read, or the ProviderUnavailableError its failure stands for (reactions, not an async function per call). */
function send(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
  const method = options.method ?? 'GET';
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let answer: Promise<RawAnswer>;
  try {
    answer = dispatch(url, options, method, maxBodyBytes);
  } catch (err) {
    const failure = err as Error;
    answer = Promise.reject(failure);
  }
  return answer.then(
    (raw) => responseOf(raw, url, method),
    (err: unknown) => {
      throw callFailure(err, url, options, method, maxBodyBytes);
    },
  );
}

function callFailure(err: unknown, url: string, options: ProviderRequestOptions, method: string, maxBodyBytes: number): Error {
  const timedOut = TIMEOUT_CODES.has((err as { code?: string }).code ?? '');
  const aborted = !timedOut && !(err instanceof BodyOverCapError) && options.signal?.aborted === true;
  const reason = timedOut
    ? `timed out after ${options.timeoutMs} ms`
    : err instanceof BodyOverCapError
      ? `answer is over the ${maxBodyBytes}-byte cap`
      : aborted
        ? 'aborted'
        : (err as Error).message;
  return unavailable(`${method} ${pathOf(url)}: ${reason}`, timedOut ? 'timeout' : aborted ? 'aborted' : 'error');
}

function responseOf({ status, text }: RawAnswer, url: string, method: string): ProviderResponse {
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
