import { CachedDictionary } from './dictionary.js';
import { Transport, type TransportOptions } from './http.js';
import { ProblemError } from './problem.js';
import type {
  Country,
  CreateOrderRequest,
  Currency,
  CurrencyPairs,
  CurrencyPairsQuery,
  CreateSellOrderRequest,
  ExportedOrder,
  LeftOutProvider,
  ListedOrder,
  Offer,
  OfferError,
  OffersQuery,
  Order,
  OrderExportQuery,
  OrderSearchPage,
  OrderSearchQuery,
  OrderStatus,
  PaymentMethod,
  PaymentMethodsQuery,
  PayoutMethod,
  PayoutMethodsQuery,
  Provider,
  ProvidersQuery,
  RankedOffer,
  RankedOffers,
  RankedSellOffer,
  RankedSellOffers,
  LeftOutSellProvider,
  SellCountriesQuery,
  SellCurrencyPairsQuery,
  SellOffer,
  SellOfferError,
  SellOffersQuery,
  SellOrder,
  SellOrderStatus,
  SellProvidersQuery,
  ServedCountriesQuery,
  ServedCountry,
  ValidateAddressRequest,
  ValidateAddressResult,
  WebhookTestResult,
} from './types.js';

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface OnrampClientOptions extends TransportOptions {
  /** How long the dictionaries are kept before they are revalidated (default 24 h, as the spec recommends). */
  dictionaryTtlMs?: number;
  /** Attempts of an order creation answered 503 or 429, or without an answer (default 4). */
  createAttempts?: number;
  /** The longest wait between creation attempts, whatever `Retry-After` says (default 30 s). */
  maxRetryDelayMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface WaitOptions {
  /** Give up after this long (default 10 min). */
  timeoutMs?: number;
  /** The first pause between polls (default 1 s), doubled up to `maxDelayMs` (default 30 s). */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

const RETRIED_CODES = new Set(['service_unavailable', 'provider_unavailable', 'rate_limited', 'network_error']);

/**
 * The broker's API in the spec's recommended sequence: dictionaries (cached), supported countries,
 * currency pairs, payment methods, offers (ranked), address validation, an idempotent order, and its
 * status by polling as the fallback to webhooks; and the off-ramp's (`sell…`, `payoutMethods`,
 * `createSellOrder`), where the customer sells crypto for fiat. Every failure is a ProblemError.
 */
export class OnrampClient {
  private readonly transport: Transport;
  private readonly currencyDictionary: CachedDictionary<{ currencies: Currency[] }>;
  private readonly countriesDictionary: CachedDictionary<{ countries: Country[] }>;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: OnrampClientOptions) {
    this.transport = new Transport(options, { 'x-api-key': options.apiKey });
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    const ttl = options.dictionaryTtlMs ?? DAY_MS;
    this.currencyDictionary = new CachedDictionary(this.transport, '/api/dict/currencies', ttl, this.now);
    this.countriesDictionary = new CachedDictionary(this.transport, '/api/dict/countries', ttl, this.now);
  }

  /** 1. The currency dictionary, kept for a day and then revalidated with If-None-Match. */
  async currencies(): Promise<Currency[]> {
    return (await this.currencyDictionary.get()).currencies;
  }

  /** The currency ID of a ticker (on a network, for crypto): `lookup('BTC', 'bitcoin')`, `lookup('USD')`. */
  async lookup(ticker: string, network?: string): Promise<number> {
    const wanted = ticker.toUpperCase();
    const matches = (await this.currencies()).filter(
      (c) => c.ticker.toUpperCase() === wanted && (network === undefined || c.network === network),
    );
    if (matches.length === 1) return matches[0]!.id;
    const networks = matches.map((c) => c.network).join(', ');
    throw ProblemError.client(
      'unknown_ticker',
      matches.length === 0
        ? `no ${ticker}${network ? ` on ${network}` : ''} in the dictionary`
        : `${ticker} is on several networks (${networks}): name one`,
    );
  }

  /** Every country with its states (the dictionary, cached like the currencies). */
  async allCountries(): Promise<Country[]> {
    return (await this.countriesDictionary.get()).countries;
  }

  /** 2. The countries at least one provider serves. */
  async countries(query: ServedCountriesQuery = {}): Promise<ServedCountry[]> {
    return (await this.get<{ countries: ServedCountry[] }>('/api/on_ramp/countries', query)).countries;
  }

  /** 3. Per provider, the fiat and crypto currency IDs it sells in the country. */
  currencyPairs(query: CurrencyPairsQuery): Promise<CurrencyPairs[]> {
    return this.get('/api/on_ramp/currency_pairs', query);
  }

  /** 4. The payment methods for a fiat currency (and country). */
  async paymentMethods(query: PaymentMethodsQuery): Promise<PaymentMethod[]> {
    return (await this.get<{ payment_methods: PaymentMethod[] }>('/api/on_ramp/payment_methods', query)).payment_methods;
  }

  async providers(query: ProvidersQuery): Promise<Provider[]> {
    return (await this.get<{ providers: Provider[] }>('/api/on_ramp/providers', query)).providers;
  }

  /**
   * 5. Offers, best first, and the providers left out with the reason. Best is by `ranking.score`
   * (the crypto each offer is expected to deliver, from how often its provider's orders complete),
   * or by `amount_expected_to` with `sortBy: 'amount'` or when the answer is unranked (`ranking: 'off'`).
   */
  async offers(query: OffersQuery, options: { sortBy?: OfferOrder } = {}): Promise<RankedOffers> {
    const answer = await this.get<Record<string, Offer | OfferError>>('/api/on_ramp/offers', { ...query, include_errors: true });
    return sortOffers(answer, options.sortBy);
  }

  /** 6. Whether the wallet address is valid for the crypto currency (and the provider's own rule). */
  async validateAddress(body: ValidateAddressRequest): Promise<ValidateAddressResult> {
    return (await this.transport.send<ValidateAddressResult>({ method: 'POST', path: '/api/on_ramp/validate-address', body })).body;
  }

  /**
   * 7. Creates the order. Idempotent on `external_order_id`: a 503, a 429 or a lost answer is retried
   * with the same body after `Retry-After` (capped), and returns the one order the broker made.
   */
  createOrder(body: CreateOrderRequest): Promise<Order> {
    return this.createIdempotently('/api/on_ramp/orders', body);
  }

  /** The order's current state. */
  order(providerCode: string, id: string): Promise<Order> {
    return this.get(`/api/on_ramp/orders/${encodeURIComponent(providerCode)}`, { code: id });
  }

  /** One page of your orders, buys and sells (each with its `kind`), newest first; pass `next_cursor` as `cursor` for the next. */
  orders(query: OrderSearchQuery = {}): Promise<OrderSearchPage> {
    return this.get('/api/on_ramp/orders', query);
  }

  /** Every order matching the query, newest first, page after page. */
  async *allOrders(query: Omit<OrderSearchQuery, 'cursor'> = {}): AsyncGenerator<ListedOrder> {
    let cursor: string | undefined;
    do {
      const page = await this.orders({ ...query, ...(cursor ? { cursor } : {}) });
      yield* page.orders;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /**
   * Every order of yours created in the window, newest first, as the export's JSON lines read one
   * by one (memory stays at a line, whatever the window holds). An export the API cut (past its
   * time limit, or the order store failing mid-way) throws a `network_error` problem while reading:
   * never a short result that looks whole.
   */
  async *exportOrders(query: OrderExportQuery): AsyncGenerator<ExportedOrder> {
    const path = '/api/on_ramp/orders/export';
    const response = await this.transport.stream({ path, query: { ...query, format: 'jsonl' }, headers: { accept: 'application/jsonl' } });
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    let pending = '';
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          throw ProblemError.client('network_error', `GET ${path}: the export was cut (${(err as Error).message}); export again`);
        }
        if (chunk.done) break;
        pending += decoder.decode(chunk.value, { stream: true });
        const lines = pending.split('\n');
        pending = lines.pop()!;
        for (const line of lines) if (line !== '') yield JSON.parse(line) as ExportedOrder;
      }
      pending += decoder.decode();
      if (pending !== '') throw ProblemError.client('invalid_response', `GET ${path}: the export ended inside a line`);
    } finally {
      reader.releaseLock();
      await response.body!.cancel().catch(() => undefined);
    }
  }

  /**
   * The same export as CSV (RFC 4180, a header record), as the response body's byte stream: pipe
   * it to a file. A cut export makes the stream error rather than end.
   */
  async exportOrdersCsv(query: OrderExportQuery): Promise<ReadableStream<Uint8Array>> {
    const response = await this.transport.stream({
      path: '/api/on_ramp/orders/export',
      query: { ...query, format: 'csv' },
      headers: { accept: 'text/csv' },
    });
    return response.body!;
  }

  /**
   * 8. Polls the order until its status is one of `statuses` (the fallback to webhooks), pausing
   * `initialDelayMs` and doubling up to `maxDelayMs`; a `timeout` problem when it never gets there.
   */
  waitForStatus(providerCode: string, id: string, statuses: OrderStatus | OrderStatus[], options: WaitOptions = {}): Promise<Order> {
    return this.pollUntil(() => this.order(providerCode, id), id, statuses, options);
  }

  /**
   * Deletes what the broker keeps of your user for ranking offers (the providers they completed an
   * order with); it cannot be undone, and the orders themselves are not deleted. Idempotent: resolves
   * whether or not anything was kept.
   */
  async forgetCustomer(externalUserId: string): Promise<void> {
    await this.transport.send<undefined>({ method: 'DELETE', path: `/api/on_ramp/customers/${encodeURIComponent(externalUserId)}` });
  }

  /** Sends a signed `webhook.test` event to your webhook endpoint; says whether it was accepted. */
  async sendTestWebhook(): Promise<WebhookTestResult> {
    return (await this.transport.send<WebhookTestResult>({ method: 'POST', path: '/api/on_ramp/webhooks/test' })).body;
  }

  // ---- the off-ramp: the customer sells crypto and is paid out in fiat ------------------------------

  /** The countries where at least one provider buys crypto. */
  async sellCountries(query: SellCountriesQuery = {}): Promise<ServedCountry[]> {
    return (await this.get<{ countries: ServedCountry[] }>('/api/off_ramp/countries', query)).countries;
  }

  /** Per provider buying crypto in the country: the crypto currency IDs it buys and the fiat IDs it pays out. */
  sellCurrencyPairs(query: SellCurrencyPairsQuery): Promise<CurrencyPairs[]> {
    return this.get('/api/off_ramp/currency_pairs', query);
  }

  /** How the providers pay the customer out, one entry per provider and method, with payout limits per fiat currency. */
  async payoutMethods(query: PayoutMethodsQuery = {}): Promise<PayoutMethod[]> {
    return (await this.get<{ payout_methods: PayoutMethod[] }>('/api/off_ramp/payout_methods', query)).payout_methods;
  }

  /** The providers buying `from_currency` (crypto) for `to_currency` (fiat) in the country. */
  async sellProviders(query: SellProvidersQuery): Promise<Provider[]> {
    return (await this.get<{ providers: Provider[] }>('/api/off_ramp/providers', query)).providers;
  }

  /** Sell offers, the highest payout (`amount_expected_to`, fiat) first, and the providers left out with the reason. */
  async sellOffers(query: SellOffersQuery): Promise<RankedSellOffers> {
    const answer = await this.get<Record<string, SellOffer | SellOfferError>>('/api/off_ramp/offers', { ...query, include_errors: true });
    return sortSellOffers(answer);
  }

  /**
   * Creates the sell order against a live sell offer, with the retries of `createOrder`: idempotent
   * on `external_order_id` (in an id space apart from buy orders). Send the customer to
   * `redirect_url`; `deposit` is where the crypto goes, once the provider has given it.
   */
  createSellOrder(body: CreateSellOrderRequest): Promise<SellOrder> {
    return this.createIdempotently('/api/off_ramp/orders', body);
  }

  /** The sell order's current state, its deposit instruction included; a buy order's id is `not_found`. */
  sellOrder(providerCode: string, id: string): Promise<SellOrder> {
    return this.get(`/api/off_ramp/orders/${encodeURIComponent(providerCode)}`, { code: id });
  }

  /** Polls the sell order until its status is one of `statuses`, as `waitForStatus`. */
  waitForSellStatus(
    providerCode: string,
    id: string,
    statuses: SellOrderStatus | SellOrderStatus[],
    options: WaitOptions = {},
  ): Promise<SellOrder> {
    return this.pollUntil(() => this.sellOrder(providerCode, id), id, statuses, options);
  }

  private async createIdempotently<T>(path: string, body: object): Promise<T> {
    const attempts = this.options.createAttempts ?? 4;
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.transport.send<T>({ method: 'POST', path, body })).body;
      } catch (err) {
        if (!(err instanceof ProblemError) || !RETRIED_CODES.has(err.code) || attempt >= attempts) throw err;
        const seconds = err.retryAfterSeconds ?? Math.min(2 ** attempt, 30);
        await this.sleep(Math.min(seconds * 1000, this.options.maxRetryDelayMs ?? 30_000));
      }
    }
  }

  private async pollUntil<S extends string, T extends { status: S }>(
    read: () => Promise<T>,
    id: string,
    statuses: S | S[],
    options: WaitOptions,
  ): Promise<T> {
    const wanted = new Set<S>([statuses].flat() as S[]);
    const deadline = this.now() + (options.timeoutMs ?? 10 * 60_000);
    let delay = options.initialDelayMs ?? 1000;
    for (;;) {
      const order = await read();
      if (wanted.has(order.status)) return order;
      if (this.now() + delay > deadline) {
        throw ProblemError.client('timeout', `order ${id} is ${order.status}, not ${[...wanted].join(' or ')}, after the wait`);
      }
      await this.sleep(delay);
      delay = Math.min(delay * 2, options.maxDelayMs ?? 30_000);
    }
  }

  private async get<T>(path: string, query: object): Promise<T> {
    return (await this.transport.send<T>({ path, query: query as Record<string, string | number | boolean | undefined> })).body;
  }
}

/** How offers are ordered: by expected crypto delivered (`score`, the default) or by amount alone. */
export type OfferOrder = 'score' | 'amount';

/**
 * An offers answer as a list, best first, and the providers left out. `score`: by the broker's rank
 * when every offer has one, by amount otherwise; ties by provider code.
 */
export function sortOffers(answer: Record<string, Offer | OfferError>, sortBy: OfferOrder = 'score'): RankedOffers {
  const offers: RankedOffer[] = [];
  const leftOut: LeftOutProvider[] = [];
  for (const [provider_code, entry] of Object.entries(answer)) {
    if ('error' in entry) leftOut.push({ provider_code, ...entry.error });
    else offers.push({ provider_code, ...entry });
  }
  const byAmount = (a: RankedOffer, b: RankedOffer) =>
    compareDecimals(b.amount_expected_to, a.amount_expected_to) || a.provider_code.localeCompare(b.provider_code);
  const ranked = sortBy === 'score' && offers.every((o) => o.ranking !== undefined);
  offers.sort(ranked ? (a, b) => a.ranking!.rank - b.ranking!.rank || byAmount(a, b) : byAmount);
  return { offers, leftOut };
}

/** A sell offers answer as a list, the highest payout first (ties by provider code), and the providers left out. */
export function sortSellOffers(answer: Record<string, SellOffer | SellOfferError>): RankedSellOffers {
  const offers: RankedSellOffer[] = [];
  const leftOut: LeftOutSellProvider[] = [];
  for (const [provider_code, entry] of Object.entries(answer)) {
    if ('error' in entry) leftOut.push({ provider_code, ...entry.error });
    else offers.push({ provider_code, ...entry });
  }
  offers.sort((a, b) => compareDecimals(b.amount_expected_to, a.amount_expected_to) || a.provider_code.localeCompare(b.provider_code));
  return { offers, leftOut };
}

/** Compares two non-negative decimal strings exactly (no floating point). */
export function compareDecimals(a: string, b: string): number {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const width = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(width, '0'));
  const y = BigInt(bi + bf.padEnd(width, '0'));
  return x === y ? 0 : x > y ? 1 : -1;
}
