/**
 * Transak's partner access token: obtained from the refresh-token endpoint, valid for days, and
 * invalidated by Transak as soon as a new one is issued. So it is cached, refreshed shortly before
 * it expires or after a 401, and never fetched twice at once.
 */
export interface IssuedToken {
  accessToken: string;
  /** Unix seconds. */
  expiresAt: number;
}

interface CachedToken {
  value: string;
  refreshAtMs: number;
}

/** Refresh this long before expiry: five minutes, or a tenth of a shorter lifetime. */
const MAX_REFRESH_MARGIN_MS = 5 * 60_000;

export class TransakAccessTokens {
  private current?: CachedToken;
  /** The token this one replaced: webhooks signed just before a refresh still verify with it. */
  private previous?: CachedToken;
  private inflight?: Promise<CachedToken>;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A token that is not due for refresh; concurrent callers share one refresh. */
  async get(): Promise<string> {
    const current = this.current;
    if (current && this.now() < current.refreshAtMs) return current.value;
    return (await this.refresh()).value;
  }

  /** Drops `value` after Transak refused it; a no-op when it was already replaced. */
  invalidate(value: string): void {
    if (this.current?.value !== value) return;
    this.previous = this.current;
    this.current = undefined;
  }

  /** The tokens webhooks may be signed with, newest first. */
  known(): string[] {
    return [this.current, this.previous].filter((t): t is CachedToken => t !== undefined).map((t) => t.value);
  }

  private refresh(): Promise<CachedToken> {
    this.inflight ??= this.issue()
      .then((issued) => {
        const obtainedAtMs = this.now();
        const expiresAtMs = issued.expiresAt * 1000;
        const margin = Math.min(MAX_REFRESH_MARGIN_MS, Math.max(0, expiresAtMs - obtainedAtMs) / 10);
        const token = { value: issued.accessToken, refreshAtMs: expiresAtMs - margin };
        if (this.current && this.current.value !== token.value) this.previous = this.current;
        this.current = token;
        return token;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }
}
