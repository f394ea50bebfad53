/** The dictionary benchmark: GET /api/dict/currencies against a bare Express handler answering the same bytes. */
import { startServer, type RunningServer } from '../lib/children';
import type { LoadResult } from '../lib/load';
import { median } from '../lib/table';
import { profileDict, type DictProfile } from './dict-profile';
import { get, load, log } from './measure';
import { DICT_PAIRS, DICT_PATH, DICT_SECONDS, DICT_SETTLE_SECONDS, DICT_TARGET, DICT_WARMUP_SECONDS, PROFILE } from './settings';

export interface DictFigures {
  bytes: number;
  contentType: string;
  /** Medians of each server's runs. */
  apiRps: number;
  bareRps: number;
  /** dict_rps_ratio: the median of the pairs' api/bare req/s ratios. */
  ratio: number;
  /** The median api req/s over the median bare req/s: the same figure worked out across pairs. */
  ratioOfMedians: number;
  /** CPU time per request of each server (median of its runs), and bare over api (median of the pairs'). */
  apiUs: number;
  bareUs: number;
  cpuRatio: number;
  non2xx: number;
  /** Median over the runs of the CPU time the hypervisor stole, in percent. */
  stealPct: number;
  pairs: { rpsRatio: number; cpuRatio: number }[];
  runs: { target: 'api' | 'bare'; result: LoadResult }[];
  apiLayers: string[];
}

async function benchDict(api: RunningServer, bare: RunningServer, apiBody: Buffer, contentType: string): Promise<DictFigures> {
  const check = await get(bare.url + DICT_PATH);
  if (check.status !== 200 || !check.body.equals(apiBody) || check.contentType !== contentType) {
    throw new Error('the bare handler does not answer the same bytes and content type as the API');
  }
  await load('dict warm-up, bare', bare.url + DICT_PATH, DICT_WARMUP_SECONDS, { bare: bare.pid });
  await load('dict warm-up, api', api.url + DICT_PATH, DICT_WARMUP_SECONDS, { api: api.pid });
  // Short runs in pairs, one of each server, back to back and alternating which goes first
  // (bare api, api bare, ...): the two runs of a pair see the same machine, so each pair's ratio is
  // little disturbed by the machine's speed drifting, which over a minute can move either server's
  // req/s by a quarter.
  const pairs: DictFigures['pairs'] = [];
  const runs: DictFigures['runs'] = [];
  for (let i = 0; i < DICT_PAIRS; i++) {
    const order: ('bare' | 'api')[] = i % 2 === 0 ? ['bare', 'api'] : ['api', 'bare'];
    const pair: Partial<Record<'api' | 'bare', LoadResult>> = {};
    for (const target of order) {
      const server = target === 'api' ? api : bare;
      const label = `dict pair ${i + 1}/${DICT_PAIRS}, ${target}`;
      const result = await load(
        label,
        server.url + DICT_PATH,
        DICT_SETTLE_SECONDS + DICT_SECONDS,
        { [target]: server.pid },
        { settleSec: DICT_SETTLE_SECONDS },
      );
      pair[target] = result;
      runs.push({ target, result });
    }
    const { api: a, bare: b } = pair as Record<'api' | 'bare', LoadResult>;
    pairs.push({ rpsRatio: a.rps / b.rps, cpuRatio: (b.cpuPerRequestUs.bare ?? NaN) / (a.cpuPerRequestUs.api ?? NaN) });
  }
  const of = (target: 'api' | 'bare') => runs.filter((r) => r.target === target).map((r) => r.result);
  const apiRps = median(of('api').map((r) => r.rps));
  const bareRps = median(of('bare').map((r) => r.rps));
  const apiUs = median(of('api').map((r) => r.cpuPerRequestUs.api ?? NaN));
  const bareUs = median(of('bare').map((r) => r.cpuPerRequestUs.bare ?? NaN));
  return {
    bytes: apiBody.length,
    contentType,
    apiRps,
    bareRps,
    ratio: median(pairs.map((p) => p.rpsRatio)),
    ratioOfMedians: apiRps / bareRps,
    apiUs,
    bareUs,
    cpuRatio: median(pairs.map((p) => p.cpuRatio)),
    non2xx: runs.reduce((n, r) => n + r.result.non2xx + r.result.errors, 0),
    stealPct: median(runs.map((r) => r.result.stealPct)),
    pairs,
    runs,
    apiLayers: api.layers ?? [],
  };
}

/** The dictionary runs, and the profile when asked for (or, by default, when the ratio misses its target). */
export interface DictRun {
  dict: DictFigures;
  profile?: DictProfile;
}

export async function runDict(): Promise<DictRun> {
  log('starting the dictionary API');
  const api = await startServer({ role: 'api' }, 'api-dict');
  try {
    const reference = await get(api.url + DICT_PATH);
    if (reference.status !== 200) throw new Error(`GET ${DICT_PATH}: HTTP ${reference.status}`);
    log('starting the bare Express app');
    const bare = await startServer(
      { role: 'bare', path: DICT_PATH, body: reference.body.toString('utf8'), contentType: reference.contentType },
      'bare',
    );
    try {
      const dict = await benchDict(api, bare, reference.body, reference.contentType);
      const runProfile = PROFILE === '1' || (PROFILE === 'auto' && dict.ratio < DICT_TARGET);
      return { dict, profile: runProfile ? await profileDict(api, bare) : undefined };
    } finally {
      await bare.stop();
    }
  } finally {
    await api.stop();
  }
}
