import type { SharedValues } from '../shared-values';
import { ProviderUnavailableError } from '../types';

/**
 * Transak's partner access token: obtained from the refresh-token endpoint, valid for days, and
 * invalidated by Transak as soon as a new one is issued. So it is cached, refreshed shortly before
 * it expires or after a 401, and never fetched twice at once. With shared values (Redis), every
 * process of the broker uses the same token: a process that needs one first takes the one another
 * process obtained, so the API and the workers do not revoke each other's tokens, and the API can
 * verify webhooks signed with a token a worker obtained.
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

const SHARED_KEY = 'transak:access-token';

/** Refresh this long before expiry: five minutes, or a tenth of a shorter lifetime. */
const MAX_REFRESH_MARGIN_MS = 5 * 60_000;

/** Webhooks (anyone can POST one) make a process holding no token refresh at most once in this long. */
export const WEBHOOK_REFRESH_INTERVAL_MS = 60_000;

export class TransakAccessTokens {
  private current?: CachedToken;
  /** The token this one replaced: webhooks signed just before a refresh still verify with it. */
  private previous?: CachedToken;
  private inflight?: Promise<CachedToken>;
  /** The last token Transak refused: never taken from the shared values again. */
  private refused?: string;
  /** When a webhook last made this process refresh. */
  private webhookRefreshAtMs?: number;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly now: () => number = Date.now,
    private readonly shared?: SharedValues,
  ) {}

  /** A token that is not due for refresh; concurrent callers share one refresh. */
  async get(): Promise<string> {
    const current = this.current;
    if (current && this.now() < current.refreshAtMs) return current.value;
    return (await this.refresh()).value;
  }

  /** Drops `value` after Transak refused it; a no-op when it was already replaced. */
  invalidate(value: string): void {
    this.refused = value;
    if (this.current?.value !== value) return;
    this.previous = this.current;
    this.current = undefined;
  }

  /**
   * The tokens webhooks may be signed with, newest first: the shared one, then this process's. A
   * process holding none refreshes, but at most once per WEBHOOK_REFRESH_INTERVAL_MS (a refresh
   * revokes the token the workers use, and failed ones are calls to Transak); until then the
   * webhook is answered as a provider outage, which Transak retries.
   */
  async candidates(): Promise<string[]> {
    const shared = await this.loadShared();
    if (shared && shared.value !== this.current?.value) this.adopt(shared);
    const tokens = [this.current, this.previous].filter((t): t is CachedToken => t !== undefined).map((t) => t.value);
    return tokens.length > 0 ? tokens : [(await this.refreshForWebhook()).value];
  }

  private refreshForWebhook(): Promise<CachedToken> {
    if (this.inflight) return this.inflight;
    const now = this.now();
    if (this.webhookRefreshAtMs !== undefined && now - this.webhookRefreshAtMs < WEBHOOK_REFRESH_INTERVAL_MS) {
      throw new ProviderUnavailableError(
        `no Transak access token to verify the webhook with, and one was requested under ${WEBHOOK_REFRESH_INTERVAL_MS / 1000} s ago`,
      );
    }
    this.webhookRefreshAtMs = now;
    return this.refresh();
  }

  private refresh(): Promise<CachedToken> {
    this.inflight ??= (async () => {
      const shared = await this.loadShared();
      if (shared && shared.value !== this.current?.value && this.now() < shared.refreshAtMs) return this.adopt(shared);
      const issued = await this.issue();
      const token = this.adopt(this.cached(issued));
      await this.saveShared(token, issued);
      return token;
    })().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private adopt(token: CachedToken): CachedToken {
    if (this.current && this.current.value !== token.value) this.previous = this.current;
    this.current = token;
    return token;
  }

  private cached(issued: IssuedToken): CachedToken {
    const expiresAtMs = issued.expiresAt * 1000;
    const margin = Math.min(MAX_REFRESH_MARGIN_MS, Math.max(0, expiresAtMs - this.now()) / 10);
    return { value: issued.accessToken, refreshAtMs: expiresAtMs - margin };
  }

  // Shared values are a help, not a dependency: when Redis fails, this process goes on with its own token.
  private async loadShared(): Promise<CachedToken | undefined> {
    if (!this.shared) return undefined;
    try {
      const raw = await this.shared.get(SHARED_KEY);
      if (raw === undefined) return undefined;
      const token = JSON.parse(raw) as CachedToken;
      return token.value === this.refused ? undefined : token;
    } catch {
      return undefined;
    }
  }

  /** Stored with its refresh time, which comes from the token's whole lifetime. */
  private async saveShared(token: CachedToken, issued: IssuedToken): Promise<void> {
    if (!this.shared) return;
    try {
      await this.shared.set(SHARED_KEY, JSON.stringify(token), Math.max(1000, issued.expiresAt * 1000 - this.now()));
    } catch {
      // as above: the token still serves this process
    }
  }
}
