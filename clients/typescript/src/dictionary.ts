import type { Transport } from './http.js';

interface Entry<T> {
  body: T;
  etag?: string;
  fetchedAt: number;
}

/**
 * A dictionary answer kept for `ttlMs` (the spec's 24 hours). Past that it is asked for again with
 * `If-None-Match`, and a `304` keeps the copy for another `ttlMs`. Concurrent callers share one request.
 */
export class CachedDictionary<T> {
  private entry?: Entry<T>;
  private pending?: Promise<T>;

  constructor(
    private readonly transport: Transport,
    private readonly path: string,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(): Promise<T> {
    if (this.entry && this.now() - this.entry.fetchedAt < this.ttlMs) return Promise.resolve(this.entry.body);
    this.pending ??= this.load().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Whether the last load was answered `304 Not Modified` (for tests and metrics). */
  revalidated = false;

  private async load(): Promise<T> {
    const cached = this.entry;
    const answer = await this.transport.send<T>({
      path: this.path,
      // fetch adds `Cache-Control: no-cache` to a conditional request unless one is set; the broker
      // answers 304 either way, but a server before it (or a proxy on the way) may answer such a request
      // in full: `max-age=0` asks for the same revalidation without that risk.
      ...(cached?.etag ? { headers: { 'if-none-match': cached.etag, 'cache-control': 'max-age=0' } } : {}),
    });
    this.revalidated = answer.status === 304 && cached !== undefined;
    const body = this.revalidated ? cached!.body : answer.body;
    const etag = answer.headers.get('etag') ?? cached?.etag;
    this.entry = { body, fetchedAt: this.now(), ...(etag ? { etag } : {}) };
    return body;
  }
}
