import { offerProviderDeadline, providerQuoteQueueWait, providerQuotesCoalesced } from '../metrics/metrics';
import { ALL_QUOTE_FIELDS, quoteKeyOf } from '../providers/kit/quote-key';
import type { ProviderAdapter, ProviderQuote, QuoteRequest } from '../providers/types';
import { Coalescer } from './coalescer';
import type { CallSignal } from '../providers/kit/call-signal';
import { AdaptiveDeadline, type DeadlineSettings } from './deadline';
import { ConcurrencyLimiter } from './limiter';

export interface QuoteCallSettings {
  /** Quote calls in flight to one provider from this process (PROVIDER_QUOTE_CONCURRENCY). */
  concurrency: number;
  deadline: DeadlineSettings;
}

interface ProviderCalls {
  labels: { provider: string };
  deadline: AdaptiveDeadline;
  limiter: ConcurrencyLimiter;
  coalescer: Coalescer<ProviderQuote>;
  /** The deadline last exported, so that the gauge is set only when it changes. */
  exportedMs: number;
  /** The number the next call sent gets: calls are numbered in the order they are sent. */
  nextSeq: number;
  /** The number of the latest-sent call answered. */
  answeredSeq: number;
}

/**
 * One request's view of its calls to a provider: the number of the latest call it sent (or, before
 * it sent any, of the latest call sent before it asked). QuoteCalls.quote moves it on.
 */
export interface SentCalls {
  lastSeq: number;
}

/**
 * Every quote call the offers service makes goes through here, per provider: identical calls in
 * flight are made once (the adapter's quoteKey says what is identical on the wire), at most
 * `concurrency` calls are in flight (the rest wait their turn within their caller's deadline), and
 * each answered call's latency feeds the provider's adaptive deadline.
 */
export class QuoteCalls {
  private readonly providers = new Map<string, ProviderCalls>();

  constructor(private readonly settings: QuoteCallSettings) {}

  /** The deadline of the provider's next request, in milliseconds. */
  deadlineMs(code: string): number {
    const calls = this.of(code);
    const ms = calls.deadline.deadlineMs();
    if (ms !== calls.exportedMs) {
      calls.exportedMs = ms;
      offerProviderDeadline.set(calls.labels, ms / 1000);
    }
    return ms;
  }

  /** A request's record of its calls to the provider, before it makes any: calls sent until now are not its own. */
  sentCalls(code: string): SentCalls {
    return { lastSeq: this.of(code).nextSeq - 1 };
  }

  /**
   * Whether the provider has answered a call sent after every call of `sent`: it is answering fresh
   * calls, so a request whose own calls timed out met a straggler, not a hung provider. The request's
   * own answered calls never count (a provider quoting one method fast and hanging on another is slow).
   */
  answeredAfter(code: string, sent: SentCalls): boolean {
    return this.of(code).answeredSeq > sent.lastSeq;
  }

  /** Forgets the provider's latencies (it is back from being slow, perhaps at another speed): its deadline is the maximum again. */
  forgetLatency(code: string): void {
    this.of(code).deadline.reset();
  }

  /**
   * One quote, made or shared. `signal` is the caller's: when it aborts, the caller stops waiting,
   * and the call itself is aborted only if no other caller waits for it.
   */
  quote(adapter: ProviderAdapter, request: QuoteRequest, signal: CallSignal, sent?: SentCalls): Promise<ProviderQuote> {
    const code = adapter.info.code;
    const calls = this.of(code);
    const key = adapter.quoteKey ? adapter.quoteKey(request) : quoteKeyOf(request, ALL_QUOTE_FIELDS);
    return calls.coalescer.run(key, (shared) => this.send(adapter, calls, request, shared, sent), signal);
  }

  private send(
    adapter: ProviderAdapter,
    calls: ProviderCalls,
    request: QuoteRequest,
    signal: CallSignal,
    sent: SentCalls | undefined,
  ): Promise<ProviderQuote> {
    // Only calls that wait are timed, by the limiter (when they start or leave the queue): the common case costs nothing.
    return calls.limiter.run(async () => {
      const seq = calls.nextSeq++;
      if (sent && seq > sent.lastSeq) sent.lastSeq = seq;
      const started = performance.now();
      let quote: ProviderQuote;
      try {
        quote = await adapter.getQuote(request, signal);
      } catch (err) {
        // A call cut short by its deadline took at least that long: counted, so that a slow mode the
        // deadline cuts off raises the deadline instead of staying unseen below it.
        if (signal.aborted) calls.deadline.record(performance.now() - started);
        throw err;
      }
      calls.deadline.record(performance.now() - started);
      if (seq > calls.answeredSeq) calls.answeredSeq = seq;
      return quote;
    }, signal);
  }

  private of(code: string): ProviderCalls {
    let calls = this.providers.get(code);
    if (!calls) {
      // One label object per provider, reused by every observation.
      const labels = { provider: code };
      calls = {
        labels,
        deadline: new AdaptiveDeadline(this.settings.deadline),
        limiter: new ConcurrencyLimiter(this.settings.concurrency, (ms) => providerQuoteQueueWait.observe(labels, ms / 1000)),
        coalescer: new Coalescer<ProviderQuote>(() => providerQuotesCoalesced.inc(labels)),
        exportedMs: NaN,
        nextSeq: 0,
        answeredSeq: -1,
      };
      this.providers.set(code, calls);
    }
    return calls;
  }
}
