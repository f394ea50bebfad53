import type { TLSConfig } from '@temporalio/client';

/** Where the Temporal frontend is and how the API and the worker authenticate to it. */
export interface TemporalEndpoint {
  address: string;
  /** TLS on; a field left out takes the SDK's default (the system's roots, no client certificate, the address's host name). */
  tls?: TLSConfig;
  /** Temporal Cloud's API key, sent as a bearer token; only ever with `tls`. */
  apiKey?: string;
}

/** The options both `Connection` (API) and `NativeConnection` (worker) take for the same endpoint. */
export function connectionOptions(endpoint: TemporalEndpoint): { address: string; tls?: TLSConfig; apiKey?: string } {
  return {
    address: endpoint.address,
    ...(endpoint.tls ? { tls: endpoint.tls } : {}),
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
  };
}
