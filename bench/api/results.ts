/** What one `npm run bench:api` measured, and its headline ratios, which both the report and the JSON give. */
import type { DictRun } from './dict-runs';
import type { OffersFigures } from './offers-runs';
import { PROVIDER_LATENCY_MS } from './settings';

export interface ApiBenchResults {
  /** Date.now() at the start. */
  started: number;
  /** The one-minute load average at the start. */
  load1: number;
  /** Absent when BENCH_ONLY left the part out. */
  dict?: DictRun;
  offers?: OffersFigures;
}

export function headlineRatios({ dict, offers }: ApiBenchResults) {
  const medians = offers?.medians;
  return {
    dictRatio: dict?.dict.ratio,
    p50Ratio: medians ? medians.p50 / PROVIDER_LATENCY_MS : undefined,
    p99Ratio: medians ? medians.p99 / PROVIDER_LATENCY_MS : undefined,
    metricsOverheadPct: medians?.metricsOverheadPct,
  };
}
