/** What a call was for: the table counts answers per kind. */
export type CallKind = 'offers' | 'create' | 'status' | 'sell_offers' | 'sell_create' | 'sell_status';

/** One answer of the broker (through the load balancer), or a request that got none (status 0). */
export interface BrokerAnswer {
  kind: CallKind;
  /** The integrator's external_order_id the call was about. */
  externalOrderId: string;
  sentAt: number;
  answeredAt: number;
  status: number;
  /** problem+json `code`, when the answer was a problem. */
  code?: string;
  retryAfter?: string;
  /** The body (or the error), kept for answers that are not 2xx. */
  detail?: string;
}

export interface JsonAnswer {
  status: number;
  body: any;
  retryAfter?: string;
}

/** The integrator's HTTP client: every call with the API key, every answer recorded. */
export class BrokerClient {
  readonly answers: BrokerAnswer[] = [];

  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs = 45_000,
  ) {}

  async call(kind: CallKind, externalOrderId: string, path: string, body?: unknown): Promise<JsonAnswer> {
    const sentAt = Date.now();
    const headers: Record<string, string> = { 'x-api-key': this.apiKey };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${this.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await response.text();
      let parsed: any;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      const retryAfter = response.headers.get('retry-after') ?? undefined;
      const ok = response.status >= 200 && response.status < 300;
      this.answers.push({
        kind,
        externalOrderId,
        sentAt,
        answeredAt: Date.now(),
        status: response.status,
        ...(typeof parsed?.code === 'string' ? { code: parsed.code } : {}),
        ...(retryAfter === undefined ? {} : { retryAfter }),
        ...(ok ? {} : { detail: text.slice(0, 500) }),
      });
      return { status: response.status, body: parsed, retryAfter };
    } catch (err) {
      const detail = `${(err as Error).name}: ${(err as Error).message}${(err as { cause?: Error }).cause ? ` (${(err as { cause: Error }).cause.message})` : ''}`;
      this.answers.push({ kind, externalOrderId, sentAt, answeredAt: Date.now(), status: 0, detail });
      return { status: 0, body: undefined };
    }
  }
}
