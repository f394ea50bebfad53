/**
 * What `npm run bench:isolation` asks the broker, shared by the benchmark (integrator B's requests)
 * and its load child (bench/isolation-load.ts: integrator A's searches and offers).
 */
import { randomUUID } from 'node:crypto';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits `ms`, or less once `running` turns false. */
export async function pause(ms: number, running: () => boolean): Promise<void> {
  const until = performance.now() + ms;
  while (running() && performance.now() < until) await sleep(Math.min(200, until - performance.now()));
}

export interface Integrator {
  id: string;
  key: string;
}

export const ORDER = {
  provider_code: 'sandbox',
  from_currency: 1,
  to_currency: 13,
  from_amount: '100.00',
  payment_method: 'card',
  country_code: 'GB',
};
export const WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

export class Broker {
  constructor(readonly url: string) {}

  async call<T>(who: Integrator, path: string, body?: unknown): Promise<{ status: number; body: T; retryAfterS: number }> {
    const response = await fetch(`${this.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'x-api-key': who.key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as T;
    return { status: response.status, body: json, retryAfterS: Number(response.headers.get('retry-after') ?? 1) };
  }

  /**
   * The API's event-loop delay since the previous call, from its own metrics (prom-client's
   * monitorEventLoopDelay histogram, which each scrape resets): p99 and max, in ms.
   */
  async eventLoopDelay(): Promise<{ p99Ms: number; maxMs: number }> {
    const text = await (await fetch(`${this.url}/metrics`)).text();
    const read = (name: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${name} `));
      if (!line) throw new Error(`the API's /metrics has no ${name}`);
      return Number(line.slice(name.length + 1)) * 1000;
    };
    return { p99Ms: read('nodejs_eventloop_lag_p99_seconds'), maxMs: read('nodejs_eventloop_lag_max_seconds') };
  }

  async ok<T>(who: Integrator, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(who, path, body);
    if (answer.status !== 200) throw new Error(`${who.id} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  offersPath(user: string, amount: string, providers: string): string {
    const query = new URLSearchParams({
      external_user_id: user,
      currency_from: '1',
      currency_to: '13',
      amount_from: amount,
      country: ORDER.country_code,
      payment_method: ORDER.payment_method,
      provider_codes: providers,
    });
    return `/api/on_ramp/offers?${query.toString()}`;
  }

  /** A sandbox offer for `user`, so that orders of `user` have a live one to match (offers live 120 s). */
  async offerFor(who: Integrator, user: string): Promise<void> {
    const offers = await this.ok<Record<string, unknown>>(who, this.offersPath(user, ORDER.from_amount, 'sandbox'));
    if (!offers.sandbox) throw new Error(`no sandbox offer for ${who.id}: ${JSON.stringify(offers)}`);
  }

  createOrder(who: Integrator, user: string): Promise<{ id: string }> {
    return this.ok<{ id: string }>(who, '/api/on_ramp/orders', {
      ...ORDER,
      wallet_address: WALLET,
      external_user_id: user,
      external_order_id: `bench-${randomUUID()}`,
    });
  }
}

/** A's searches, `searchesAtOnce` loops, each walking pages of several filters; a 429 waits its Retry-After. */
export async function searchLoops(
  broker: Broker,
  a: Integrator,
  searchesAtOnce: number,
  running: () => boolean,
): Promise<{ searches: number; refused: number }> {
  const filters = ['', 'status=complete', 'provider_code=sandbox&limit=100', 'status=created&limit=50', 'external_user_id=nobody'];
  let searches = 0;
  let refused = 0;
  await Promise.all(
    Array.from({ length: searchesAtOnce }, async (_, loop) => {
      let cursor: string | undefined;
      for (let n = loop; running(); n++) {
        const filter = filters[n % filters.length]!;
        const path = `/api/on_ramp/orders?${filter}${cursor ? `${filter ? '&' : ''}cursor=${cursor}` : ''}`;
        const answer = await broker.call<{ next_cursor?: string }>(a, path);
        if (answer.status === 429) {
          refused++;
          await pause(answer.retryAfterS * 1000, running);
          continue;
        }
        searches++;
        cursor = answer.status === 200 && filter === '' ? answer.body.next_cursor : undefined;
      }
    }),
  );
  return { searches, refused };
}

/** A's offers: its whole rate limit at once against the slow provider, then again whenever its window lets it. */
export async function offerBurst(
  broker: Broker,
  a: Integrator,
  slowProvider: string,
  running: () => boolean,
): Promise<{ offers: number; refused: number }> {
  const user = `bench-a-burst-${randomUUID()}`;
  let offers = 0;
  let refused = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: 200 }, async () => {
      while (running()) {
        const amount = (100 + (n++ % 90_000) / 100).toFixed(2);
        const answer = await broker.call(a, broker.offersPath(user, amount, slowProvider));
        if (answer.status === 429) {
          refused++;
          await pause(answer.retryAfterS * 1000, running);
        } else offers++;
      }
    }),
  );
  return { offers, refused };
}
