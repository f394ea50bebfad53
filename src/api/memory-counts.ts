import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';

interface Window {
  totalHits: number;
  resetTime: Date;
}

/**
 * Fixed-window request counts in this process, as express-rate-limit's `MemoryStore` keeps them (a
 * key's window starts at its first request and lasts windowMs; keys not seen for a window are
 * dropped), with the count also answered synchronously (`hit`): the rate limiter then decides in
 * the request's own turn, without the store's promise and the microtask it costs every request.
 */
export class MemoryCounts implements Store {
  readonly localKeys = true;
  private windowMs = 60_000;
  private previous = new Map<string, Window>();
  private current = new Map<string, Window>();
  private interval?: NodeJS.Timeout;

  init(options: Pick<Options, 'windowMs'>): void {
    this.windowMs = options.windowMs;
    if (this.interval) clearInterval(this.interval);
    this.interval = setInterval(() => {
      this.previous = this.current;
      this.current = new Map();
    }, this.windowMs);
    this.interval.unref();
  }

  /** Counts one request of `key`: its hits in the window so far, this one included, and when the window ends. */
  hit(key: string): ClientRateLimitInfo {
    const window = this.windowOf(key);
    const now = Date.now();
    if (window.resetTime.getTime() <= now) this.restart(window, now);
    window.totalHits++;
    return window;
  }

  increment(key: string): Promise<ClientRateLimitInfo> {
    return Promise.resolve(this.hit(key));
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const window = this.current.get(key) ?? this.previous.get(key);
    return Promise.resolve(window && window.resetTime.getTime() > Date.now() ? window : undefined);
  }

  decrement(key: string): Promise<void> {
    const window = this.windowOf(key);
    if (window.totalHits > 0) window.totalHits--;
    return Promise.resolve();
  }

  resetKey(key: string): Promise<void> {
    this.current.delete(key);
    this.previous.delete(key);
    return Promise.resolve();
  }

  shutdown(): void {
    clearInterval(this.interval);
    this.current.clear();
    this.previous.clear();
  }

  private windowOf(key: string): Window {
    let window = this.current.get(key);
    if (window !== undefined) return window;
    window = this.previous.get(key);
    if (window !== undefined) this.previous.delete(key);
    else window = this.restart({ totalHits: 0, resetTime: new Date() }, Date.now());
    this.current.set(key, window);
    return window;
  }

  private restart(window: Window, now: number): Window {
    window.totalHits = 0;
    window.resetTime = new Date(now + this.windowMs);
    return window;
  }
}
