/**
 * The checkout demo: an integrator's web app in front of the broker. The browser never sees the API
 * key; it talks to this server, which asks the broker through the client package, receives the
 * broker's signed webhooks and pushes each order's status changes to the pages watching that order
 * (server-sent events): buy orders, and sell orders (the Sell tab: the off-ramp) with the deposit the
 * provider gave. Every input from the browser is checked before it goes anywhere.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import {
  OnrampClient,
  ProblemError,
  webhookMiddleware,
  type Country,
  type Currency,
  type Deposit,
  type Order,
  type SellOrder,
  type ServedCountry,
  type WebhookEvent,
} from './onramp';

export interface CheckoutDemoOptions {
  /** The broker's base URL, e.g. http://127.0.0.1:3000. */
  apiUrl: string;
  apiKey: string;
  /** The `whsec_…` secret the broker signs this integrator's webhooks with. */
  webhookSecret: string;
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** The demo as the customer's browser reaches it (the base of the return URL); default http://localhost:<port>. */
  publicUrl?: string;
  /** Pages that may watch one order at once (server-sent events). */
  maxWatchersPerOrder?: number;
  maxWatchers?: number;
  log?: (line: string) => void;
}

export interface CheckoutDemo {
  url: string;
  close(): Promise<void>;
}

/** The path the broker's integrator webhooks must be sent to (ONRAMP_WEBHOOK_URL = <demo>/webhooks/onramp). */
export const WEBHOOK_PATH = '/webhooks/onramp';

const FINAL = new Set(['complete', 'failed', 'expired', 'refunded']);
/** A failed sell order may still be refunded, and an expired one revive on a late deposit (docs/decisions.md). */
const SELL_FINAL = new Set(['complete', 'refunded']);
const COUNTRY = /^[A-Z]{2}$/;
const STATE = /^[A-Z0-9]{1,3}$/;
const PROVIDER = /^[a-z0-9_]{1,32}$/;
const AMOUNT = /^\d{1,12}(\.\d{1,18})?$/;
const PAYMENT_METHOD = /^[a-z0-9_]{1,40}$/;
const SIDE = /^(buy|sell)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PRINTABLE = /^[\x21-\x7e]{1,128}$/;
const USER_COOKIE = 'demo_user';
const HEARTBEAT_MS = 15_000;
const REMEMBERED_ORDERS = 10_000;

/** A 400 the browser is shown: which field, and why. */
class BadInput extends Error {
  constructor(readonly field: string) {
    super(`${field} is missing or malformed`);
  }
}

type Side = 'buy' | 'sell';
type AnyOrder = Order | SellOrder;

/** The status the pages show: the order's public fields, never the whole order. */
interface StatusView {
  id: string;
  provider_code: string;
  side: Side;
  status: string;
  updated_at: string;
  from_amount: string;
  from_currency: string;
  to_amount: string;
  to_currency: string;
  /** A buy order's: where the crypto goes. */
  wallet_address?: string;
  /** A sell order's: where the crypto goes back, how the fiat is paid out, and where the customer sends the crypto. */
  refund_wallet_address?: string;
  payout_method?: string;
  deposit?: Deposit;
  failure_reason?: string;
  transaction_hash?: string;
  sequence?: number;
  source: 'snapshot' | 'webhook';
  final: boolean;
}

interface Watcher {
  providerCode: string;
  send(view: StatusView): void;
}

interface KnownOrder {
  providerCode: string;
  orderId: string;
  side: Side;
}

export async function startCheckoutDemo(options: CheckoutDemoOptions): Promise<CheckoutDemo> {
  const log = options.log ?? ((line: string) => process.stdout.write(`[demo] ${line}\n`));
  const client = new OnrampClient({ baseUrl: options.apiUrl, apiKey: options.apiKey });
  const maxPerOrder = options.maxWatchersPerOrder ?? 5;
  const maxWatchers = options.maxWatchers ?? 500;
  const watchers = new Map<string, Set<Watcher>>();
  let watcherCount = 0;
  /**
   * Per order: the last change a webhook pushed (the broker may deliver one twice). A page that
   * connects gets it after the snapshot when it is newer: the broker sends a webhook while it is
   * still saving the order, so a status read at once can show the change before (docs/api.md).
   */
  const lastChange = new Map<string, AnyOrder & { sequence: number }>();
  /**
   * Side and checkout reference → the order it created. A restart forgets: the order search finds a
   * buy order again; the broker has no sell order search, so a sell order's status link stops working.
   */
  const known = new Map<string, KnownOrder>();
  let publicUrl = options.publicUrl ?? '';

  const remember = <K, V>(map: Map<K, V>, key: K, value: V) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > REMEMBERED_ORDERS) map.delete(map.keys().next().value as K);
  };

  const currencyById = async (): Promise<Map<number, Currency>> => new Map((await client.currencies()).map((c) => [c.id, c]));
  const ticker = (currencies: Map<number, Currency>, id: number) => currencies.get(id)?.ticker ?? String(id);

  const view = async (order: AnyOrder, providerCode: string, source: StatusView['source'], sequence?: number): Promise<StatusView> => {
    const currencies = await currencyById();
    const sell = 'kind' in order && order.kind === 'off_ramp';
    const hash = 'kind' in order ? order.transaction_hash : order.extras.transaction_hash;
    return {
      id: order.id,
      provider_code: providerCode,
      side: sell ? 'sell' : 'buy',
      status: order.status,
      updated_at: order.updated_at,
      from_amount: order.from_amount,
      from_currency: ticker(currencies, order.from_currency),
      to_amount: order.to_amount,
      to_currency: ticker(currencies, order.to_currency),
      ...('kind' in order
        ? {
            refund_wallet_address: order.refund_wallet_address,
            payout_method: order.payout_method,
            ...(order.deposit ? { deposit: depositView(order.deposit) } : {}),
          }
        : { wallet_address: order.wallet_address }),
      ...(order.failure_reason ? { failure_reason: order.failure_reason } : {}),
      ...(typeof hash === 'string' ? { transaction_hash: hash } : {}),
      ...(sequence !== undefined ? { sequence } : {}),
      source,
      final: (sell ? SELL_FINAL : FINAL).has(order.status),
    };
  };

  /** A verified broker webhook: each status change goes to the pages watching that order. */
  const onWebhook = async (event: WebhookEvent) => {
    if (event.type === 'webhook.test') {
      log(`test webhook received (${event.data.webhook_id})`);
      return;
    }
    const { data } = event;
    if ((lastChange.get(data.id)?.sequence ?? 0) >= data.sequence) return; // a repeat, or older than what was pushed
    const listening = watchers.get(data.id);
    log(`order ${data.id} is ${data.status} (#${data.sequence}); ${listening?.size ?? 0} page(s) watching`);
    // One view per provider (every page watching an order names the same one), not one per page.
    const views = new Map<string, Awaited<ReturnType<typeof view>>>();
    for (const watcher of listening ?? []) {
      let shown = views.get(watcher.providerCode);
      if (!shown) views.set(watcher.providerCode, (shown = await view(data, watcher.providerCode, 'webhook', data.sequence)));
      watcher.send(shown);
    }
    // Only once it is pushed: when this throws, the answer is 500 and the broker sends it again.
    remember(lastChange, data.id, data);
  };

  /**
   * The order a checkout reference made. The reference is a random UUID only the customer's browser
   * and the return URL carry: knowing it is what lets a page watch the order (as with any status link).
   */
  const findOrder = async (ref: string, providerCode: string, side: Side): Promise<KnownOrder | undefined> => {
    const hit = known.get(`${side}:${ref}`);
    if (hit) return hit.providerCode === providerCode ? hit : undefined;
    if (side === 'sell') return undefined;
    const page = await client.orders({ external_order_id: externalOrderId(ref), provider_code: providerCode, limit: 1 });
    const order = page.orders[0];
    if (!order) return undefined;
    const found: KnownOrder = { providerCode, orderId: order.id, side };
    remember(known, `${side}:${ref}`, found);
    return found;
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((_req, res, next) => {
    res.set({
      'Content-Security-Policy':
        "default-src 'self'; img-src 'self' https: data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    });
    next();
  });

  // The broker's webhooks: verified on the raw body by the client package before anything parses it.
  app.post(WEBHOOK_PATH, webhookMiddleware(options.webhookSecret, onWebhook));

  const publicDir = join(__dirname, 'public');
  app.get('/', (_req, res) => res.sendFile(join(publicDir, 'index.html')));
  app.get('/status', (_req, res) => res.sendFile(join(publicDir, 'status.html')));
  app.use('/static', express.static(publicDir, { index: false, fallthrough: false }));

  // Every /api call is the browser's: it gets (or keeps) an anonymous user id in an HttpOnly cookie.
  const api = express.Router();
  app.use('/api', api);
  api.use((req, res, next) => {
    let userId = cookie(req, USER_COOKIE);
    if (!userId || !/^demo-[0-9a-f-]{36}$/.test(userId)) {
      userId = `demo-${randomUUID()}`;
      res.cookie(USER_COOKIE, userId, { httpOnly: true, sameSite: 'lax', path: '/' });
    }
    res.locals.userId = userId;
    next();
  });
  api.use(express.json({ limit: '4kb', type: 'application/json' }));

  /** Served countries, with their names and states from the dictionary. */
  api.get('/countries', async (_req, res) => {
    const [served, all] = await Promise.all([client.countries(), client.allCountries()]);
    res.json({ countries: namedCountries(served, all) });
  });

  /** The fiat and crypto currencies some provider sells in the country (and state). */
  api.get('/currencies', async (req, res) => {
    const { country, state } = place(req);
    const [pairs, currencies] = await Promise.all([
      client.currencyPairs({ country_code: country, ...(state ? { state } : {}) }),
      currencyById(),
    ]);
    res.json({
      fiat: currencyList(
        currencies,
        pairs.flatMap((p) => p.fiat_currencies),
      ),
      crypto: currencyList(
        currencies,
        pairs.flatMap((p) => p.crypto_currencies),
      ),
    });
  });

  api.get('/payment-methods', async (req, res) => {
    const { country, state } = place(req);
    const fiat = currencyParam(req.query.fiat, 'fiat');
    const methods = await client.paymentMethods({ fiat_currency: fiat, country_code: country, ...(state ? { state } : {}) });
    res.json({ payment_methods: methods.map((m) => ({ code: m.code, name: m.name })) });
  });

  /** Offers, best first (the client orders them by the broker's ranking), and the providers left out with the reason. */
  api.get('/offers', async (req, res) => {
    const { country, state } = place(req);
    const ip = customerIp(req);
    const { offers, leftOut } = await client.offers({
      external_user_id: String(res.locals.userId),
      currency_from: currencyParam(req.query.fiat, 'fiat'),
      currency_to: currencyParam(req.query.crypto, 'crypto'),
      amount_from: match(req.query.amount, AMOUNT, 'amount'),
      payment_method: match(req.query.payment_method, PAYMENT_METHOD, 'payment_method'),
      country,
      ...(state ? { state } : {}),
      ...(ip ? { ip } : {}),
    });
    res.json({
      offers: offers.map((o) => ({
        provider_code: o.provider_code,
        amount_from: o.amount_from,
        amount_expected_to: o.amount_expected_to,
        inverted_rate: o.inverted_rate,
        total_fee_amount: o.total_fee_amount,
        expires_at: o.expires_at,
        payment_methods: o.payment_methods,
        // Why the broker ranks it where it does: shown to the customer beside the offer.
        ...(o.ranking ? { rank: o.ranking.rank, reasons: o.ranking.reasons } : {}),
      })),
      left_out: leftOut.map((p) => ({ provider_code: p.provider_code, code: p.code, message: p.message })),
    });
  });

  api.post('/validate-address', async (req, res) => {
    const body = bodyOf(req);
    const result = await client.validateAddress({
      provider_code: match(body.provider_code, PROVIDER, 'provider_code'),
      currency: currencyParam(body.crypto, 'crypto'),
      wallet_address: match(body.wallet_address, PRINTABLE, 'wallet_address'),
      ...(body.memo ? { memo: match(body.memo, PRINTABLE, 'memo') } : {}),
    });
    res.json(result);
  });

  /**
   * Creates the order. `checkout_ref` is the browser's id for this checkout: the broker's
   * external_order_id is made from it, so a double click or a retry returns the same order.
   */
  api.post('/orders', async (req, res) => {
    const body = bodyOf(req);
    const ref = match(body.checkout_ref, UUID, 'checkout_ref');
    const providerCode = match(body.provider_code, PROVIDER, 'provider_code');
    const country = match(body.country, COUNTRY, 'country');
    const state = body.state ? match(body.state, STATE, 'state') : undefined;
    const ip = customerIp(req);
    const returnUrl = statusUrl(publicUrl, providerCode, ref, 'buy');
    const order = await client.createOrder({
      provider_code: providerCode,
      from_currency: currencyParam(body.fiat, 'fiat'),
      to_currency: currencyParam(body.crypto, 'crypto'),
      from_amount: match(body.amount, AMOUNT, 'amount'),
      payment_method: match(body.payment_method, PAYMENT_METHOD, 'payment_method'),
      wallet_address: match(body.wallet_address, PRINTABLE, 'wallet_address'),
      ...(body.memo ? { memo: match(body.memo, PRINTABLE, 'memo') } : {}),
      country_code: country,
      ...(state ? { state_code: state } : {}),
      ...(ip ? { ip } : {}),
      external_user_id: String(res.locals.userId),
      external_order_id: externalOrderId(ref),
      // Where the provider sends the customer back (providers read one key or the other).
      extras: { return_url: returnUrl, redirect_url: returnUrl },
    });
    remember(known, `buy:${ref}`, { providerCode, orderId: order.id, side: 'buy' });
    res.json({ id: order.id, status: order.status, redirect_url: safeUrl(order.redirect_url), status_url: returnUrl });
  });

  // ---- the Sell tab: the off-ramp, the customer sends crypto and is paid out in fiat ---------------

  /** Countries where some provider buys crypto, with their names and states from the dictionary. */
  api.get('/sell/countries', async (_req, res) => {
    const [served, all] = await Promise.all([client.sellCountries(), client.allCountries()]);
    res.json({ countries: namedCountries(served, all) });
  });

  /** The crypto currencies some provider buys in the country (and state), and the fiat it pays out. */
  api.get('/sell/currencies', async (req, res) => {
    const { country, state } = place(req);
    const [pairs, currencies] = await Promise.all([
      client.sellCurrencyPairs({ country_code: country, ...(state ? { state } : {}) }),
      currencyById(),
    ]);
    res.json({
      crypto: currencyList(
        currencies,
        pairs.flatMap((p) => p.crypto_currencies),
      ),
      fiat: currencyList(
        currencies,
        pairs.flatMap((p) => p.fiat_currencies),
      ),
    });
  });

  /** The payout methods for the fiat currency there, one per code (several providers may offer one). */
  api.get('/sell/payout-methods', async (req, res) => {
    const { country, state } = place(req);
    const methods = await client.payoutMethods({
      country_code: country,
      ...(state ? { state } : {}),
      currency: currencyParam(req.query.fiat, 'fiat'),
    });
    const byCode = new Map(methods.map((m) => [m.code, { code: m.code, name: m.name }]));
    res.json({ payout_methods: [...byCode.values()].sort((a, b) => a.name.localeCompare(b.name)) });
  });

  /** Sell offers, the highest payout first, and the providers left out with the reason. */
  api.get('/sell/offers', async (req, res) => {
    const { country, state } = place(req);
    const ip = customerIp(req);
    const { offers, leftOut } = await client.sellOffers({
      external_user_id: String(res.locals.userId),
      currency_from: currencyParam(req.query.crypto, 'crypto'),
      currency_to: currencyParam(req.query.fiat, 'fiat'),
      amount_from: match(req.query.amount, AMOUNT, 'amount'),
      payout_method: match(req.query.payout_method, PAYMENT_METHOD, 'payout_method'),
      country,
      ...(state ? { state } : {}),
      ...(ip ? { ip } : {}),
    });
    res.json({
      offers: offers.map((o) => ({
        provider_code: o.provider_code,
        amount_from: o.amount_from,
        amount_expected_to: o.amount_expected_to,
        rate: o.rate,
        total_fee_amount: o.total_fee_amount,
        fees: o.fees,
        payout_methods: o.payout_methods,
        expires_at: o.expires_at,
      })),
      left_out: leftOut.map((p) => ({ provider_code: p.provider_code, code: p.code, message: p.message })),
    });
  });

  /**
   * Creates the sell order against the chosen offer; idempotent on the checkout reference as a buy
   * order is. The broker checks the refund address for the crypto's network (`invalid_wallet_address`).
   */
  api.post('/sell/orders', async (req, res) => {
    const body = bodyOf(req);
    const ref = match(body.checkout_ref, UUID, 'checkout_ref');
    const providerCode = match(body.provider_code, PROVIDER, 'provider_code');
    const country = match(body.country, COUNTRY, 'country');
    const state = body.state ? match(body.state, STATE, 'state') : undefined;
    const ip = customerIp(req);
    const returnUrl = statusUrl(publicUrl, providerCode, ref, 'sell');
    const order = await client.createSellOrder({
      provider_code: providerCode,
      from_currency: currencyParam(body.crypto, 'crypto'),
      to_currency: currencyParam(body.fiat, 'fiat'),
      from_amount: match(body.amount, AMOUNT, 'amount'),
      payout_method: match(body.payout_method, PAYMENT_METHOD, 'payout_method'),
      refund_wallet_address: match(body.refund_wallet_address, PRINTABLE, 'refund_wallet_address'),
      country_code: country,
      ...(state ? { state_code: state } : {}),
      ...(ip ? { ip } : {}),
      external_user_id: String(res.locals.userId),
      external_order_id: externalOrderId(ref),
      return_url: returnUrl,
    });
    remember(known, `sell:${ref}`, { providerCode, orderId: order.id, side: 'sell' });
    res.json({
      id: order.id,
      status: order.status,
      redirect_url: safeUrl(order.redirect_url),
      status_url: returnUrl,
      ...(order.deposit ? { deposit: depositView(order.deposit) } : {}),
    });
  });

  /** The order's status now, then each change the broker's webhooks report, as server-sent events. */
  api.get('/orders/:provider/events', async (req, res) => {
    const providerCode = match(req.params.provider, PROVIDER, 'provider');
    const ref = match(req.query.ref, UUID, 'ref');
    const side = (req.query.side === undefined ? 'buy' : match(req.query.side, SIDE, 'side')) as Side;
    const found = await findOrder(ref, providerCode, side);
    // A page that left while the order was looked up would never fire `close` again: not counted.
    if (res.closed || req.socket.destroyed) return;
    if (!found) {
      res.status(404).json({ code: 'not_found', detail: 'no such order' });
      return;
    }
    const listening = watchers.get(found.orderId) ?? new Set<Watcher>();
    if (listening.size >= maxPerOrder || watcherCount >= maxWatchers) {
      res.status(429).set('Retry-After', '10').json({ code: 'too_many_watchers', detail: 'too many pages are watching this order' });
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
    const watcher: Watcher = { providerCode, send: (v) => res.write(`event: status\ndata: ${JSON.stringify(v)}\n\n`) };
    // Listening before the snapshot is read, so no change falls between the two; pages order by updated_at.
    listening.add(watcher);
    watchers.set(found.orderId, listening);
    watcherCount++;
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    res.on('close', () => {
      clearInterval(heartbeat);
      listening.delete(watcher);
      watcherCount--;
      if (listening.size === 0 && watchers.get(found.orderId) === listening) watchers.delete(found.orderId);
    });
    res.write('retry: 3000\n\n');
    try {
      const snapshot: AnyOrder =
        found.side === 'sell' ? await client.sellOrder(providerCode, found.orderId) : await client.order(providerCode, found.orderId);
      watcher.send(await view(snapshot, providerCode, 'snapshot'));
      const pushed = lastChange.get(found.orderId);
      if (pushed && pushed.updated_at > snapshot.updated_at) watcher.send(await view(pushed, providerCode, 'webhook', pushed.sequence));
    } catch (err) {
      log(`snapshot of ${found.orderId} failed: ${(err as Error).message}`);
      res.write(`event: problem\ndata: ${JSON.stringify({ detail: 'the order could not be read; retrying' })}\n\n`);
      res.end();
    }
  });

  api.use((_req, res) => res.status(404).json({ code: 'not_found', detail: 'no such route' }));
  // Errors: the broker's problem code and field messages pass through; anything else is a plain 500, logged here only.
  app.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    if (err instanceof BadInput) {
      res
        .status(400)
        .json({ code: 'validation_error', detail: err.message, errors: [{ path: err.field, message: 'missing or malformed' }] });
    } else if (err instanceof ProblemError && err.status >= 400 && err.status < 500 && err.status !== 401) {
      res.status(err.status).json({ code: err.code, detail: err.detail, errors: err.errors });
    } else if (err instanceof ProblemError && err.status !== 401) {
      res.status(503).json({ code: err.code, detail: 'the broker cannot answer now; try again in a moment' });
    } else if (clientError(err) === 404) {
      res.status(404).json({ code: 'not_found', detail: 'not found' });
    } else if (clientError(err)) {
      // Express's own refusals: a body that is not JSON or too large, a path outside the static folder.
      res.status(400).json({ code: 'validation_error', detail: 'the request is not acceptable' });
    } else {
      log(`error: ${(err as Error)?.stack ?? String(err)}`);
      res.status(500).json({ code: 'internal_error', detail: 'something went wrong on the demo server' });
    }
  });

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`;
  publicUrl ||= `http://localhost:${port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The 4xx status of an error Express or its middleware raised (http-errors), else undefined. */
function clientError(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/** The demo's status page for one checkout: the return URL given to the provider, and the page's link. */
function statusUrl(publicUrl: string, providerCode: string, ref: string, side: Side): string {
  const query = new URLSearchParams({ provider: providerCode, ref, ...(side === 'sell' ? { side } : {}) });
  return `${publicUrl}/status?${query.toString()}`;
}

/** The served countries with their names, and the served states, from the dictionary; by name. */
function namedCountries(served: ServedCountry[], all: Country[]): { code: string; name: string; states: Country['states'] }[] {
  const byCode = new Map(all.map((c) => [c.code, c]));
  return served
    .map((s) => {
      const country = byCode.get(s.code);
      const states = (country?.states ?? []).filter((st) => !s.states || s.states.includes(st.code));
      return { code: s.code, name: country?.name ?? s.code, states };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The currencies of these IDs (once each) the page shows, by ticker and network. */
function currencyList(currencies: Map<number, Currency>, ids: number[]) {
  return [...new Set(ids)]
    .map((id) => currencies.get(id))
    .filter((c): c is Currency => c !== undefined)
    .map((c) => ({ id: c.id, ticker: c.ticker, name: c.name, network: c.network ?? null }))
    .sort((a, b) => a.ticker.localeCompare(b.ticker) || (a.network ?? '').localeCompare(b.network ?? ''));
}

/** The deposit as the page shows it: exactly the provider's fields, nothing else of the order's. */
function depositView(deposit: Deposit): Deposit {
  return {
    address: deposit.address,
    ...(deposit.memo !== undefined ? { memo: deposit.memo } : {}),
    network: deposit.network,
    amount: deposit.amount,
    ...(deposit.expires_at !== undefined ? { expires_at: deposit.expires_at } : {}),
  };
}

function externalOrderId(ref: string): string {
  return `demo-${ref}`;
}

function match(value: unknown, pattern: RegExp, field: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new BadInput(field);
  return value;
}

function currencyParam(value: unknown, field: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  return Number(match(text, /^[1-9]\d{0,5}$/, field));
}

function place(req: Request): { country: string; state?: string } {
  const country = match(req.query.country, COUNTRY, 'country');
  const state = req.query.state ? match(req.query.state, STATE, 'state') : undefined;
  return state ? { country, state } : { country };
}

function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (!req.is('application/json') || typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadInput('body');
  return body as Record<string, unknown>;
}

/** The customer's address as the broker wants it (Mercuryo signs its checkout for it). */
function customerIp(req: Request): string | undefined {
  const ip = req.socket.remoteAddress?.replace(/^::ffff:/, '');
  return ip === '::1' ? '127.0.0.1' : ip;
}

/** The provider's checkout link, only when it is an http(s) URL (never `javascript:`). */
function safeUrl(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
