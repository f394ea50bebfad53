import { randomUUID } from 'node:crypto';
import { weakInterval } from '../weak-timer';
import type { Logger } from '../logging';
import { providerBreakerState, providerBreakerTransitions } from '../metrics/metrics';
import type { BreakerStore } from './breaker-store';
import {
  admit,
  CLOSED,
  current,
  settle,
  STATE_VALUE,
  type BreakerRecord,
  type BreakerSettings,
  type CreationResult,
  type Step,
  type Transition,
} from './provider-breaker';

/** Whether an order may go to its provider; a probe carries its id, which its outcome must name. */
export type OrderAdmission = { admitted: true; probeId?: string } | { admitted: false; state: 'open' | 'half_open'; retryAt: number };

export interface ProviderBreakersOptions {
  store: BreakerStore;
  settings: BreakerSettings;
  /** The providers whose breakers this process follows (the registry's). */
  providers: readonly string[];
  /** How often the local view is read again from the store (ms); 1000 by default. */
  refreshMs?: number;
  now?: () => number;
  logger?: Logger;
}

/**
 * The API's side of the providers' breakers. Offers read a local view synchronously (no store
 * call per request); the view is read again from the store every `refreshMs`, and this process's
 * own steps update it at once. An order is checked against the store only while its breaker is
 * half-open (probes are counted there, for every process); a closed breaker admits and an open one
 * refuses from the view. When the store cannot be reached, the view decides alone.
 */
export class ProviderBreakers {
  private readonly view = new Map<string, BreakerRecord>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly options: ProviderBreakersOptions) {
    this.now = options.now ?? Date.now;
    for (const provider of options.providers) providerBreakerState.set({ provider }, 0);
  }

  /** Starts refreshing the view in the background (the timer does not hold the process). */
  start(): this {
    this.timer ??= weakInterval(this, this.options.refreshMs ?? 1000, (self) => void self.refresh());
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Reads every followed breaker from the store into the view; a failure keeps the view as it was. */
  refresh(): Promise<void> {
    this.refreshing ??= this.options.store
      .read(this.options.providers)
      .then((records) => {
        for (const [provider, record] of records) this.see(provider, record);
      })
      .catch((err: unknown) => this.options.logger?.warn({ err }, 'provider breakers: the store could not be read'))
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /** While the provider's breaker is open: when it lets a probe through. Undefined when closed or half-open. */
  openUntil(provider: string): number | undefined {
    const record = this.view.get(provider);
    if (record === undefined || record.state !== 'open') return undefined;
    return this.now() < record.until ? record.until : undefined;
  }

  /** Whether an order for the provider may go ahead; a half-open breaker takes it as a probe when it has room. */
  async admit(provider: string): Promise<OrderAdmission> {
    const now = this.now();
    const local = current(this.recordOf(provider), now);
    if (local.state === 'closed') return { admitted: true };
    if (local.state === 'open') return { admitted: false, state: 'open', retryAt: local.until };
    const probeId = randomUUID();
    let step: Step<Awaited<ReturnType<BreakerStore['admit']>>['result']>;
    try {
      step = await this.options.store.admit(provider, now, probeId);
    } catch (err) {
      this.options.logger?.warn({ err, provider }, 'provider breakers: the store could not be reached; this process decides alone');
      step = admit(local, now, probeId, this.options.settings);
    }
    this.took(provider, step);
    const { result } = step;
    if (!result.admitted) return result;
    return result.probe ? { admitted: true, probeId } : { admitted: true };
  }

  /** An admitted order's creation ended: the view moves at once, the store after (never thrown: logged). */
  async settle(provider: string, admission: OrderAdmission, result: CreationResult): Promise<void> {
    const probeId = admission.admitted ? admission.probeId : undefined;
    const now = this.now();
    const local = settle(this.recordOf(provider), now, result, probeId, this.options.settings);
    this.see(provider, local.record);
    try {
      this.took(provider, await this.options.store.settle(provider, now, result, probeId));
    } catch (err) {
      this.options.logger?.warn({ err, provider }, 'provider breakers: an order creation outcome could not be stored');
    }
  }

  private recordOf(provider: string): BreakerRecord {
    return this.view.get(provider) ?? CLOSED;
  }

  /** A step the store took: its record is the view's now, and its transitions are counted and logged. */
  private took(provider: string, step: Step<unknown>): void {
    this.see(provider, step.record);
    for (const transition of step.transitions) this.transitioned(provider, transition);
  }

  private see(provider: string, record: BreakerRecord): void {
    this.view.set(provider, record);
    providerBreakerState.set({ provider }, STATE_VALUE[current(record, this.now()).state]);
  }

  private transitioned(provider: string, { from, to }: Transition): void {
    providerBreakerTransitions.inc({ provider, from, to });
    const logger = this.options.logger;
    if (to === 'open') logger?.warn({ provider, from }, 'provider breaker open: its orders are refused and it is left out of offers');
    else logger?.info({ provider, from, to }, `provider breaker ${to === 'closed' ? 'closed' : 'half-open'}`);
  }
}
