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
 * One HTTP call to a provider. Network errors, timeouts and 5xx answers become
 * ProviderUnavailableError (worth retrying); any other answer is returned with its parsed body.
 */
export async function providerRequest(url: string, options: ProviderRequestOptions): Promise<ProviderResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: {
        accept: 'application/json',
        ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.json === undefined ? undefined : JSON.stringify(options.json),
      signal,
    });
  } catch (err) {
    const reason = timeout.aborted ? `timed out after ${options.timeoutMs} ms` : (err as Error).message;
    throw new ProviderUnavailableError(`${options.method ?? 'GET'} ${new URL(url).pathname}: ${reason}`);
  }
  const text = await response.text();
  if (response.status >= 500) {
    throw new ProviderUnavailableError(`${options.method ?? 'GET'} ${new URL(url).pathname}: HTTP ${response.status}`);
  }
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw new ProviderUnavailableError(`${new URL(url).pathname}: answer is not JSON (HTTP ${response.status})`);
    }
  }
  return { status: response.status, body };
}
