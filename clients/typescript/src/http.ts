import { ProblemError } from './problem.js';
import type { Problem } from './types.js';

/** Where the API is and how to reach it, whichever credential a client sends. */
export interface ConnectionOptions {
  baseUrl: string;
  fetch?: typeof fetch;
  /** Sent as `User-Agent` where the runtime allows it. */
  userAgent?: string;
}

/** An integrator's connection: its API key goes as `X-Api-Key`. */
export interface TransportOptions extends ConnectionOptions {
  apiKey: string;
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ApiAnswer<T> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * The API over `fetch`: the credential on every call (the headers it was made with: an integrator's
 * `X-Api-Key`, or an operator's `Authorization: Bearer`), JSON in and out, every failure a ProblemError.
 */
export class Transport {
  private readonly fetch: typeof fetch;
  private readonly baseUrl: string;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly credential: Record<string, string>,
  ) {
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The answer of a 2xx or 304; any other status becomes the API's problem. */
  async send<T>(request: ApiRequest): Promise<ApiAnswer<T>> {
    const response = await this.fetched(request);
    if (response.status === 304) return { status: 304, headers: response.headers, body: undefined as T };
    return this.answerOf<T>(request, response);
  }

  /** A 2xx answer whose body is read as it comes (an export); any other status becomes the API's problem. */
  async stream(request: ApiRequest): Promise<Response> {
    const response = await this.fetched(request);
    if (response.ok && response.body) return response;
    return (await this.answerOf(request, response)) as never;
  }

  private async fetched(request: ApiRequest): Promise<Response> {
    const url = new URL(`${this.baseUrl}${request.path}`);
    for (const [name, value] of Object.entries(request.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { accept: 'application/json', ...this.credential, ...request.headers };
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await this.fetch(url, {
        method: request.method ?? 'GET',
        headers,
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      });
    } catch (err) {
      throw ProblemError.client('network_error', `${request.method ?? 'GET'} ${request.path}: ${(err as Error).message}`);
    }
  }

  private async answerOf<T>(request: ApiRequest, response: Response): Promise<ApiAnswer<T>> {
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw ProblemError.client('invalid_response', `${request.path} answered ${response.status} with a body that is not JSON`);
    }
    if (response.ok) return { status: response.status, headers: response.headers, body: body as T };
    throw problemOf(response, body);
  }
}

function problemOf(response: Response, body: unknown): ProblemError {
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  const problem = body as Partial<Problem> | undefined;
  if (!problem || typeof problem.code !== 'string') {
    return new ProblemError({
      code: 'invalid_response',
      status: response.status,
      title: 'The answer is not a problem document',
      detail: `HTTP ${response.status} without a problem+json body`,
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
    });
  }
  return new ProblemError({
    code: problem.code,
    status: response.status,
    title: problem.title ?? '',
    detail: problem.detail ?? '',
    ...(problem.errors ? { errors: problem.errors } : {}),
    ...(problem.request_id ? { request_id: problem.request_id } : {}),
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
  });
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
