import type { Counter, Histogram } from 'prom-client';
import { metricsRecording } from './metrics';

/**
 * One series of a prom-client counter or histogram (one metric, one label object made once and
 * reused), recorded in place. prom-client's own `inc(labels)` and `observe(labels, value)` write
 * the label values into a new key string on every call to find the series, and `observe` makes a
 * closure and an object besides; on the offers path (a dozen observations per request) that was
 * about 5 KB of allocation per request. A series does the first observation through the metric's
 * own method (its checks, the series' creation), then keeps the metric's record of the series and
 * adds to it as the metric's method would; so what a scrape reads is the same. The record is looked
 * up again whenever the metric no longer holds it (a reset), and nothing is recorded while the
 * broker's metrics are off (setMetricsRecording), as the metric's own methods then do.
 */
abstract class Series<Entry> {
  private map: Record<string, Entry> | undefined;
  protected entry: Entry | undefined;
  private readonly key: string;

  constructor(
    protected readonly metric: object,
    protected readonly labels: Record<string, string>,
  ) {
    this.key = seriesKey(metric, labels);
  }

  /** The metric's record of this series, once it has one and still holds it; undefined otherwise. */
  protected kept(): Entry | undefined {
    const entry = this.entry;
    if (entry === undefined || !metricsRecording()) return undefined;
    const map = (this.metric as { hashMap: Record<string, Entry> }).hashMap;
    return map === this.map && map[this.key] === entry ? entry : undefined;
  }

  /** After an observation through the metric's own method: its record of this series, kept. */
  protected keep(): void {
    const map = (this.metric as { hashMap: Record<string, Entry> | undefined }).hashMap;
    this.map = map;
    this.entry = map?.[this.key];
  }
}

/** prom-client's key of a series: `name:value,` for each label, in the order of the sorted label names. */
function seriesKey(metric: object, labels: Record<string, string>): string {
  let key = '';
  for (const name of (metric as { sortedLabelNames: string[] }).sortedLabelNames) {
    const value = labels[name];
    if (value !== undefined) key += `${name}:${value},`;
  }
  return key;
}

interface CounterEntry {
  value: number;
}

/** A counter's series, counted one at a time. */
export class CounterSeries extends Series<CounterEntry> {
  constructor(counter: Counter<string>, labels: Record<string, string>) {
    super(counter, labels);
  }

  inc(): void {
    const entry = this.kept();
    if (entry) {
      entry.value += 1;
      return;
    }
    (this.metric as Counter<string>).inc(this.labels);
    this.keep();
  }
}

interface HistogramEntry {
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

/** A histogram's series. */
export class HistogramSeries extends Series<HistogramEntry> {
  private readonly bounds: readonly number[];
  /** Each bound as the key of its bucket, written once. */
  private readonly boundKeys: string[];

  constructor(histogram: Histogram<string>, labels: Record<string, string> = {}) {
    super(histogram, labels);
    this.bounds = (histogram as unknown as { upperBounds: number[] }).upperBounds;
    this.boundKeys = this.bounds.map(String);
  }

  observe(value: number): void {
    const entry = this.kept();
    if (!entry || !Number.isFinite(value)) {
      (this.metric as Histogram<string>).observe(this.labels, value);
      this.keep();
      return;
    }
    entry.sum += value;
    entry.count += 1;
    // The first bucket whose upper bound is at least the value; none above the last (+Inf only).
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        entry.bucketValues[this.boundKeys[i]!]! += 1;
        return;
      }
    }
  }
}
