/** Messages between bench/api.ts and its server children (bench/servers.ts). */

export type ServerSpec =
  | { role: 'bare'; path: string; body: string; contentType: string }
  | {
      role: 'api';
      /** The simulator host of the six benchmark providers; without it, the configured providers. */
      simUrl?: string;
    }
  | { role: 'sim'; latencyMs?: Record<string, number> }
  /** The offers runs' floor (bench/lib/bare-fanout.ts): `GET` anything asks `codes` at `simUrl` for one quote each. */
  | { role: 'fanout'; simUrl: string; codes: string[]; query: string };

export type ChildMessage =
  | { type: 'ready'; port: number; layers?: string[]; strippable?: string[] }
  | { type: 'stripped'; removed: string[] }
  | { type: 'error'; message: string };

export type ChildCommand =
  | { type: 'start'; spec: ServerSpec }
  /** role "api" only: leave these middleware layers out from now on (profiling). */
  | { type: 'strip'; names: string[] }
  | { type: 'stop' };
