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
  /** The offers runs of each fan-out width (BENCH_OFFERS_WIDTHS), narrowest first; the widest gives the headline. */
  offers?: OffersFigures[];
}

/** The offers runs that give the headline figures: the widest fan-out. */
export const headlineOffers = (results: ApiBenchResults): OffersFigures | undefined => results.offers?.at(-1);

export function headlineRatios(results: ApiBenchResults) {
  return { dictRatio: results.dict?.dict.ratio, ...offersRatios(headlineOffers(results)) };
}

/** The offers figures that have targets, of one fan-out width. */
export function offersRatios(offers: OffersFigures | undefined) {
  const medians = offers?.medians;
  const mix = offers?.mix;
  return {
    p50Ratio: medians ? medians.p50 / PROVIDER_LATENCY_MS : undefined,
    p99Ratio: medians ? medians.p99 / PROVIDER_LATENCY_MS : undefined,
    metricsOverheadPct: medians?.metricsOverheadPct,
    /** The p99 of the 10 s after the slow provider turns slow over the healthy providers' p99 (the measured runs'). */
    slowWarmupRatio: offers && medians ? offers.slowWarmup.latency.p99 / medians.p99 : undefined,
    /** Quote calls the broker sent per offers request under the realistic mix. */
    callsPerRequest: mix ? mix.quoteCalls / Math.max(mix.offersRequests, 1) : undefined,
  };
}
