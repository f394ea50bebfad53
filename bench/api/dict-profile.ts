/** The profile of the dictionary route: the benchmark's API with its parts switched off in turn (bench/lib/api-variants.ts). */
import type { RunningServer } from '../lib/children';
import { median } from '../lib/table';
import { load } from './measure';
import { DICT_PATH, PROFILE_ROUNDS, PROFILE_SECONDS, PROFILE_WARMUP_SECONDS } from './settings';

export interface Variant {
  name: string;
  removed: string[];
  /** Medians over the rounds. */
  rps: number;
  /** CPU time of the API's event-loop thread per request, in microseconds. */
  us: number;
  /** Each round's CPU time per request. */
  usRuns: number[];
}

export interface DictProfile {
  bareRps: number;
  bareUs: number;
  full: Variant;
  variants: Variant[];
}

/**
 * The dictionary API of the runs above (warm), with each of its parts switched off in turn, then all
 * of them but the direct routes (the cheapest API the configuration allows).
 * CPU time of the event-loop thread per request is the measure (far less disturbed by the rest of
 * a busy machine than req/s): what a middleware costs is the full API's time per request minus that
 * of the API without it. Short runs, interleaved over several rounds, median of each.
 */
export async function profileDict(api: RunningServer, bare: RunningServer): Promise<DictProfile> {
  const parts = api.strippable ?? [];
  const plan = [[], ...parts.map((name) => [name]), parts.filter((name) => name !== 'direct-routes')];
  const url = (s: RunningServer) => s.url + DICT_PATH;
  const runs = plan.map(() => ({ removed: [] as string[], rps: [] as number[], us: [] as number[] }));
  try {
    const bareRuns = [await load('profile, bare', url(bare), PROFILE_SECONDS, { bare: bare.pid })];
    for (let round = 1; round <= PROFILE_ROUNDS; round++) {
      for (const [i, strip] of plan.entries()) {
        const label = `profile ${round}/${PROFILE_ROUNDS}, api${strip.length === 0 ? '' : ` without ${strip.join(', ')}`}`;
        runs[i]!.removed = await api.strip(strip);
        const result = await load(
          label,
          url(api),
          PROFILE_WARMUP_SECONDS + PROFILE_SECONDS,
          { api: api.pid },
          { settleSec: PROFILE_WARMUP_SECONDS },
        );
        runs[i]!.rps.push(result.rps);
        runs[i]!.us.push(result.cpuPerRequestUs.api ?? NaN);
      }
    }
    bareRuns.push(await load('profile, bare', url(bare), PROFILE_SECONDS, { bare: bare.pid }));
    const [full, ...variants] = runs.map((r) => ({
      name: r.removed.length === 0 ? 'full api' : `api without ${r.removed.join(', ')}`,
      removed: r.removed,
      rps: median(r.rps),
      us: median(r.us),
      usRuns: r.us,
    }));
    return {
      bareRps: median(bareRuns.map((r) => r.rps)),
      bareUs: median(bareRuns.map((r) => r.cpuPerRequestUs.bare ?? NaN)),
      full: full!,
      variants,
    };
  } finally {
    await api.strip([]);
  }
}
