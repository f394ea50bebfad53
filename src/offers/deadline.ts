/**
 * A provider's quote deadline, from its own recent latency: `multiplier` x the p99 of its last
 * `window` answered quote calls, within [`floorMs`, `maxMs`]. With fewer than `minSamples` answers
 * (a provider never asked yet, or just back from being slow) it is `maxMs`: a provider is never cut
 * short for lack of data. Pure: the caller measures and records; nothing here reads a clock.
 */
export interface DeadlineSettings {
  /** The configured maximum (OFFERS_PROVIDER_TIMEOUT_MS): the cold deadline, and the probes' deadline. */
  maxMs: number;
  /** No adaptive deadline is shorter (OFFERS_DEADLINE_FLOOR_MS). */
  floorMs: number;
  /** How many times its recent p99 a provider is given (OFFERS_DEADLINE_MULTIPLIER). */
  multiplier: number;
  /** How many of its latest answers make a provider's recent latency (default 128). */
  window?: number;
  /** Answers needed before the deadline adapts (default 20). */
  minSamples?: number;
}

/** The p99 is worked out again after this many new answers (or on the first call after minSamples); in between it is cached. */
const RECOMPUTE_EVERY = 8;

export class AdaptiveDeadline {
  private readonly samples: Float64Array;
  /** Where the samples are sorted for the p99, made once (a copy per recompute was ~1 KB every eight answers). */
  private readonly sorted: Float64Array;
  private readonly minSamples: number;
  private count = 0;
  private next = 0;
  private sinceComputed = 0;
  private computed = false;
  private cached: number;

  constructor(private readonly settings: DeadlineSettings) {
    const window = settings.window ?? 128;
    if (!(window >= 1) || !(settings.multiplier > 0) || !(settings.floorMs > 0) || settings.floorMs > settings.maxMs) {
      throw new RangeError('deadline settings: window >= 1, multiplier > 0 and 0 < floorMs <= maxMs');
    }
    this.samples = new Float64Array(window);
    this.sorted = new Float64Array(window);
    this.minSamples = Math.min(settings.minSamples ?? 20, window);
    this.cached = settings.maxMs;
  }

  /** The latency of one answered quote call, in milliseconds. */
  record(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.samples[this.next] = ms;
    this.next = (this.next + 1) % this.samples.length;
    if (this.count < this.samples.length) this.count++;
    this.sinceComputed++;
  }

  /** Forgets every answer: the deadline is the maximum again until `minSamples` new ones (a provider back from being slow). */
  reset(): void {
    this.count = 0;
    this.next = 0;
    this.sinceComputed = 0;
    this.computed = false;
    this.cached = this.settings.maxMs;
  }

  /** The p99 of the answers in the window (nearest rank), or undefined below minSamples. */
  p99(): number | undefined {
    if (this.count < this.minSamples) return undefined;
    const full = this.count === this.samples.length;
    const sorted = full ? this.sorted : this.sorted.subarray(0, this.count);
    sorted.set(full ? this.samples : this.samples.subarray(0, this.count));
    sorted.sort();
    return sorted[Math.ceil(0.99 * this.count) - 1];
  }

  /** The deadline of the provider's next quote, in milliseconds. */
  deadlineMs(): number {
    if (this.count < this.minSamples) return this.settings.maxMs;
    if (!this.computed || this.sinceComputed >= RECOMPUTE_EVERY) {
      const { floorMs, maxMs, multiplier } = this.settings;
      this.cached = Math.min(maxMs, Math.max(floorMs, Math.ceil(multiplier * this.p99()!)));
      this.sinceComputed = 0;
      this.computed = true;
    }
    return this.cached;
  }
}
