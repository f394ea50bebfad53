/** Messages between bench/api.ts and its server children (bench/servers.ts). */
import type { AllocationReading, AllocationSite } from './memory';

export type ServerSpec =
  | { role: 'bare'; path: string; body: string; contentType: string }
  | {
      role: 'api';
      /** The simulator host of the benchmark providers; without it, the configured providers. */
      simUrl?: string;
      /** How many healthy benchmark providers it asks, besides the slow one (bench/providers.ts; default 5). */
      width?: number;
    }
  | { role: 'sim'; latencyMs?: Record<string, number>; width?: number }
  /** The offers runs' floor (bench/lib/bare-fanout.ts): `GET` anything asks `codes` at `simUrl` for one quote each. */
  | { role: 'fanout'; simUrl: string; codes: string[]; query: string };

export type ChildMessage =
  | { type: 'ready'; port: number; layers?: string[]; strippable?: string[] }
  | { type: 'stripped'; removed: string[] }
  /** role "api": the bytes its JS heap has allocated since it started (bench/lib/memory.ts). */
  | { type: 'memory'; reading: AllocationReading }
  /** role "api": a sampling heap profile's sites, largest first (after {type:'heap-sampling', stop}). */
  | { type: 'heap-sites'; sites: AllocationSite[] }
  | { type: 'error'; message: string };

export type ChildCommand =
  | { type: 'start'; spec: ServerSpec }
  /** role "api" only: leave these middleware layers out from now on (profiling). */
  | { type: 'strip'; names: string[] }
  /** role "api" only: answer {type:'memory'}. */
  | { type: 'memory' }
  /** role "api" only: start V8's sampling heap profiler, or stop it and answer {type:'heap-sites'} (by function, or by file). */
  | { type: 'heap-sampling'; action: 'start' | 'stop'; byFile?: boolean }
  | { type: 'stop' };
