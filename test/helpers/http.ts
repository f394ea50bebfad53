import { DEFAULT_DEV_OPERATOR_KEY } from '../../src/config/operators';
import { TEST_API_KEY } from './config';

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A real HTTP call to the broker's API with the test integrator's key. */
export async function callApi<T = any>(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; apiKey?: string | null; headers?: Record<string, string> } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.apiKey !== null) headers['x-api-key'] = init.apiKey ?? TEST_API_KEY;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A real HTTP call to the operator API (`path` under /api/operator) with the development operator's key (or `key`), and no integrator key. */
export function callOperatorApi<T = any>(
  baseUrl: string,
  path: string,
  init: { method?: string; body?: unknown; key?: string } = {},
): Promise<JsonResponse<T>> {
  return callApi<T>(baseUrl, `/api/operator${path}`, {
    method: init.method,
    body: init.body,
    apiKey: null,
    headers: { authorization: `Bearer ${init.key ?? DEFAULT_DEV_OPERATOR_KEY}` },
  });
}

export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
