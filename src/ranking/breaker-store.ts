import {
  admit,
  CLOSED,
  settle,
  type Admission,
  type BreakerRecord,
  type BreakerSettings,
  type CreationResult,
  type Step,
} from './provider-breaker';

/**
 * Where the providers' breakers are kept: in this process (MemoryBreakerStore) or in Redis, shared by
 * every API process (RedisBreakerStore). Each call is one atomic step of one provider's breaker.
 */
export interface BreakerStore {
  admit(provider: string, now: number, probeId: string): Promise<Step<Admission>>;
  settle(provider: string, now: number, result: CreationResult, probeId: string | undefined): Promise<Step>;
  /** The providers' records as kept (not brought to `now`: see `current`); a provider with none is closed. */
  read(providers: readonly string[]): Promise<Map<string, BreakerRecord>>;
}

/** The breakers of one process. */
export class MemoryBreakerStore implements BreakerStore {
  private readonly records = new Map<string, BreakerRecord>();

  constructor(private readonly settings: BreakerSettings) {}

  admit(provider: string, now: number, probeId: string): Promise<Step<Admission>> {
    return Promise.resolve(this.keep(provider, admit(this.recordOf(provider), now, probeId, this.settings)));
  }

  settle(provider: string, now: number, result: CreationResult, probeId: string | undefined): Promise<Step> {
    return Promise.resolve(this.keep(provider, settle(this.recordOf(provider), now, result, probeId, this.settings)));
  }

  read(providers: readonly string[]): Promise<Map<string, BreakerRecord>> {
    return Promise.resolve(new Map(providers.map((p) => [p, this.recordOf(p)])));
  }

  private recordOf(provider: string): BreakerRecord {
    return this.records.get(provider) ?? CLOSED;
  }

  private keep<T>(provider: string, step: Step<T>): Step<T> {
    this.records.set(provider, step.record);
    return step;
  }
}
