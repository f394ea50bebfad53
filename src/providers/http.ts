import { request } from 'undici';
import { ProviderUnavailableError } from './types';

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
}

/**
 * One HTTP call to a provider (undici, keep-alive connections). Network errors, timeouts and 5xx
 * answers become ProviderUnavailableError (worth retrying); any other answer is returned with its
 * parsed body.
 */
export async function providerRequest(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
  const method = options.method ?? 'GET';
  const path = new URL(url).pathname;
  const timeout = AbortSignal.timeout(options.timeoutMs);
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
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch (err) {
    const reason = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : options.signal?.aborted ? 'aborted' : (err as Error).message;
    throw new ProviderUnavailableError(`${method} ${path}: ${reason}`);
  }
  if (status >= 500) throw new ProviderUnavailableError(`${method} ${path}: HTTP ${status}`);
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ProviderUnavailableError(`${path}: answer is not JSON (HTTP ${status})`);
    }
  }
  return { status, body };
}
