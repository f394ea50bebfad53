/**
 * The memory figures of the offers runs: what the broker API child's JS heap allocates per offers
 * request (read inside the child, bench/lib/memory.ts), and the most resident memory it had.
 */
import type { RunningServer } from '../lib/children';
import type { LoadResult } from '../lib/load';
import { rssOf } from '../lib/memory';
import { median } from '../lib/table';

/** offers_alloc_kb_per_request at most. */
export const ALLOC_KB_TARGET = 135;
/** api_rss_peak_mb at most. */
export const RSS_PEAK_MB_TARGET = 250;

export interface OffersMemory {
  /** KB allocated by the broker API's heap per offers request, in each measured broker run. */
  allocKbRuns: number[];
  /** Their median: offers_alloc_kb_per_request. */
  allocKb: number;
  /** Collections in each measured broker run, and their summed pauses (ms). */
  gcRuns: number[];
  gcMsRuns: number[];
  /** The broker API child's resident set size at its highest (VmHWM), in MB, at the end of the offers runs. */
  rssPeakMb: number;
  /** The same for the broker API child without metrics. */
  noMetricsRssPeakMb: number;
}

/** What the broker API's heap allocated over each measured run it was given (allocation.run). */
export class AllocationRecorder {
  private readonly runs: { kb: number; gcs: number; gcMs: number }[] = [];

  constructor(private readonly api: RunningServer) {}

  /** `load` run with the API child's allocation read before and after, per request answered. */
  async run(load: () => Promise<LoadResult>): Promise<LoadResult> {
    const before = await this.api.memory();
    const result = await load();
    const after = await this.api.memory();
    this.runs.push({
      kb: (after.allocatedBytes - before.allocatedBytes) / Math.max(result.requests, 1) / 1024,
      gcs: after.gcs - before.gcs,
      gcMs: after.gcMs - before.gcMs,
    });
    return result;
  }

  /** The figures, with each child's peak resident set read now (from /proc: call before stopping them). */
  figures(noMetrics: RunningServer): OffersMemory {
    const allocKbRuns = this.runs.map((r) => r.kb);
    return {
      allocKbRuns,
      allocKb: median(allocKbRuns),
      gcRuns: this.runs.map((r) => r.gcs),
      gcMsRuns: this.runs.map((r) => r.gcMs),
      rssPeakMb: rssOf(this.api.pid).peakBytes / 2 ** 20,
      noMetricsRssPeakMb: rssOf(noMetrics.pid).peakBytes / 2 ** 20,
    };
  }
}
