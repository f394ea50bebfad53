import { randomBytes } from 'node:crypto';
import { signAccessToken } from './signing';

const DEFAULT_TTL_MS = 7 * 24 * 3_600_000;

/** The partner's access token: one valid at a time, each new one replacing the one before, as at Transak. */
export class PartnerAccessTokens {
  private readonly issuerSecret = randomBytes(32).toString('hex');
  private token?: { value: string; expiresAtMs: number };
  /** How many access tokens were issued. */
  issued = 0;
  /** How many partner calls were refused for a missing, replaced or expired access token. */
  rejected = 0;

  constructor(
    private readonly apiKey: string,
    private readonly ttlMs = DEFAULT_TTL_MS,
  ) {}

  /** Issues a new token, which invalidates the one before; `expiresAt` in Unix seconds. */
  async issue(nowMs: number): Promise<{ accessToken: string; expiresAt: number }> {
    const iat = Math.floor(nowMs / 1000);
    const exp = Math.max(iat + 1, Math.floor((nowMs + this.ttlMs) / 1000));
    const value = await signAccessToken(this.issuerSecret, this.apiKey, iat, exp);
    this.token = { value, expiresAtMs: exp * 1000 };
    this.issued++;
    return { accessToken: value, expiresAt: exp };
  }

  /** Whether a partner call's `access-token` header is the current, unexpired token; counts a refusal. */
  accepts(header: string | undefined, nowMs: number): boolean {
    const token = this.token;
    if (!token || header !== token.value || nowMs >= token.expiresAtMs) {
      this.rejected++;
      return false;
    }
    return true;
  }

  /** The current token, which signs webhooks; none before the first is issued. */
  get current(): string | undefined {
    return this.token?.value;
  }
}
