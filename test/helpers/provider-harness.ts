/**
 * One provider adapter against its simulator over real HTTP on 127.0.0.1, no Temporal: the simulator
 * mounted in a SimulatorHost on an ephemeral port, and a small receiver on another playing the
 * broker's webhook endpoint, where every webhook goes through `adapter.parseWebhook` as it arrives,
 * or through `adapter.sell.parseWebhook` where `adapter.sell.isSellWebhook` routes it there.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { SellWebhookEvent } from '../../src/providers/sell-types';
import { IgnoredWebhookError, type IncomingWebhook, type ProviderAdapter, type ProviderWebhookEvent } from '../../src/providers/types';
import { NO_FAULTS } from '../../src/simulators/kit/faults';
import { SimulatorHost, type ProviderSimulator } from '../../src/simulators/kit/host';
import { eventually } from './http';
import { closeServer, listenOnLoopback } from './ports';

export interface HarnessUrls {
  /** The simulator host, e.g. http://127.0.0.1:PORT: what a provider's config takes as its simulator URL. */
  simulatorUrl: string;
  /** The simulated provider itself, `${simulatorUrl}/<code>`: the simulator's public URL. */
  publicUrl: string;
  /** The receiver playing the broker, e.g. http://127.0.0.1:PORT: the broker's public URL. */
  brokerUrl: string;
  /** The broker's webhook endpoint for the provider, `${brokerUrl}/api/webhooks/<code>`. */
  webhookUrl: string;
}

/** A provider config function's answer: only simulator mode will do. */
type ConfigResult = { mode: 'simulator'; config: unknown } | { mode: string };
type SimulatorConfig<R extends ConfigResult> = Extract<R, { mode: 'simulator' }> extends { config: infer C } ? C : never;

export interface ProviderHarnessOptions<S extends ProviderSimulator, R extends ConfigResult> {
  /** The provider code: the simulator's path prefix and the broker's webhook path /api/webhooks/<code>. */
  code: string;
  /** The provider's configuration, e.g. `(urls) => moonpayConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl })`. */
  config: (urls: HarnessUrls) => R;
  simulator: (urls: HarnessUrls, config: SimulatorConfig<R>) => S;
  adapter: (config: SimulatorConfig<R>) => ProviderAdapter;
  /**
   * The order a webhook is filed under, read from the webhook as it came (e.g. Ramp's `?order_id=`);
   * by default the order id of the event the adapter parsed from it.
   */
  orderOf?: (webhook: IncomingWebhook) => string | undefined;
}

export interface WebhookRefusal {
  webhook: IncomingWebhook;
  error: Error;
}

export interface ProviderHarness<S extends ProviderSimulator = ProviderSimulator, C = unknown> {
  readonly simulator: S;
  readonly adapter: ProviderAdapter;
  readonly config: C;
  readonly urls: HarnessUrls;
  /** Every webhook that reached the broker's endpoint, as the broker got it, in arrival order. */
  readonly webhooks: readonly IncomingWebhook[];
  /** The webhooks the adapter refused (the receiver answered them 401, or 500 for other errors). */
  readonly refusals: readonly WebhookRefusal[];
  /** The verified webhooks the adapter does not act on (IgnoredWebhookError): answered 200, as the broker does. */
  readonly ignored: readonly { webhook: IncomingWebhook; error: IgnoredWebhookError }[];
  /** Requests to the receiver anywhere but the broker's webhook endpoint. */
  readonly strays: readonly string[];
  /** The events of one order's webhooks, in arrival order; rejects when one of the webhooks considered was refused. */
  eventsFor(orderId: string): Promise<ProviderWebhookEvent[]>;
  /** Waits until the order has `until` events (or `until(events)` holds) and returns them all. */
  waitForEvents(orderId: string, until: number | ((events: ProviderWebhookEvent[]) => boolean)): Promise<ProviderWebhookEvent[]>;
  /** The events of one sell order's webhooks (those `adapter.sell.isSellWebhook` routed), in arrival order; as eventsFor. */
  sellEventsFor(orderId: string): Promise<SellWebhookEvent[]>;
  /** Waits until the sell order has `until` events (or `until(events)` holds) and returns them all. */
  waitForSellEvents(orderId: string, until: number | ((events: SellWebhookEvent[]) => boolean)): Promise<SellWebhookEvent[]>;
  /** Turns every fault switch off. */
  resetFaults(): void;
  stop(): Promise<void>;
}

type Outcome<E = ProviderWebhookEvent> = { event: E } | { error: Error } | { ignored: IgnoredWebhookError };

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export async function startProviderHarness<S extends ProviderSimulator, R extends ConfigResult>(
  options: ProviderHarnessOptions<S, R>,
): Promise<ProviderHarness<S, SimulatorConfig<R>>> {
  const webhookPath = `/api/webhooks/${options.code}`;
  const received: { webhook: IncomingWebhook; outcome: Promise<Outcome> }[] = [];
  const sellReceived: { webhook: IncomingWebhook; outcome: Promise<Outcome<SellWebhookEvent>> }[] = [];
  const webhooks: IncomingWebhook[] = [];
  const refusals: WebhookRefusal[] = [];
  const ignored: { webhook: IncomingWebhook; error: IgnoredWebhookError }[] = [];
  const strays: string[] = [];
  // Both are built once the ports are known; no webhook can come before.
  const late: { adapter?: ProviderAdapter; host?: SimulatorHost } = {};

  const receiver = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (req.method !== 'POST' || url.pathname !== webhookPath) {
      strays.push(req.url ?? '');
      req.resume();
      res.writeHead(404).end();
      return;
    }
    void readBody(req).then(async (rawBody) => {
      const webhook: IncomingWebhook = { headers: req.headers, rawBody, query: Object.fromEntries(url.searchParams) };
      const settle = <E>(parsed: Promise<E>): Promise<Outcome<E>> =>
        parsed.then(
          (event): Outcome<E> => ({ event }),
          (error: Error): Outcome<E> => {
            if (error instanceof IgnoredWebhookError) {
              ignored.push({ webhook, error });
              return { ignored: error };
            }
            refusals.push({ webhook, error });
            return { error };
          },
        );
      // As the broker's webhook route: a webhook the sell adapter says is a sell order's goes to its parser.
      const sell = late.adapter!.sell;
      webhooks.push(webhook);
      let outcome: Promise<Outcome<unknown>>;
      if (sell?.isSellWebhook(webhook)) {
        const sold = settle(sell.parseWebhook(webhook));
        sellReceived.push({ webhook, outcome: sold });
        outcome = sold;
      } else {
        const bought = settle(late.adapter!.parseWebhook(webhook));
        received.push({ webhook, outcome: bought });
        outcome = bought;
      }
      const result = await outcome;
      if (!('error' in result)) res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      else res.writeHead(result.error.name === 'WebhookVerificationError' ? 401 : 500).end();
    });
  });
  const brokerUrl = await listenOnLoopback(receiver);
  const simulatorServer = createServer((req, res) => late.host!.app(req, res));
  const simulatorUrl = await listenOnLoopback(simulatorServer);
  const urls: HarnessUrls = {
    simulatorUrl,
    publicUrl: `${simulatorUrl}/${options.code}`,
    brokerUrl,
    webhookUrl: `${brokerUrl}${webhookPath}`,
  };

  const result = options.config(urls);
  if (result.mode !== 'simulator' || !('config' in result))
    throw new Error(`expected ${options.code} in simulator mode, got ${result.mode}`);
  const config = result.config as SimulatorConfig<R>;
  const simulator = options.simulator(urls, config);
  const host = new SimulatorHost([simulator]);
  late.host = host;
  const adapter = options.adapter(config);
  late.adapter = adapter;

  async function eventsFor(orderId: string): Promise<ProviderWebhookEvent[]> {
    const outcomes = await Promise.all(
      received.filter(({ webhook }) => !options.orderOf || options.orderOf(webhook) === orderId).map(({ outcome }) => outcome),
    );
    const events: ProviderWebhookEvent[] = [];
    for (const outcome of outcomes) {
      if ('error' in outcome) throw new Error(`a webhook was refused: ${outcome.error.message}`);
      if ('ignored' in outcome) continue;
      if (options.orderOf || outcome.event.orderId === orderId) events.push(outcome.event);
    }
    return events;
  }

  async function sellEventsFor(orderId: string): Promise<SellWebhookEvent[]> {
    const outcomes = await Promise.all(sellReceived.map(({ outcome }) => outcome));
    const events: SellWebhookEvent[] = [];
    for (const outcome of outcomes) {
      if ('error' in outcome) throw new Error(`a sell webhook was refused: ${outcome.error.message}`);
      if ('event' in outcome && outcome.event.orderId === orderId) events.push(outcome.event);
    }
    return events;
  }

  return {
    simulator,
    adapter,
    config,
    urls,
    webhooks,
    refusals,
    ignored,
    strays,
    eventsFor,
    waitForEvents(orderId, until) {
      const done = typeof until === 'number' ? (events: ProviderWebhookEvent[]) => events.length >= until : until;
      const what = typeof until === 'number' ? `${until} webhooks for ${orderId}` : `the webhooks awaited for ${orderId}`;
      return eventually(async () => {
        const events = await eventsFor(orderId);
        return done(events) ? events : undefined;
      }, what);
    },
    sellEventsFor,
    waitForSellEvents(orderId, until) {
      const done = typeof until === 'number' ? (events: SellWebhookEvent[]) => events.length >= until : until;
      const what = typeof until === 'number' ? `${until} sell webhooks for ${orderId}` : `the sell webhooks awaited for ${orderId}`;
      return eventually(async () => {
        const events = await sellEventsFor(orderId);
        return done(events) ? events : undefined;
      }, what);
    },
    resetFaults() {
      Object.assign(simulator.faults, NO_FAULTS);
      simulator.webhooks.releaseHeld();
    },
    async stop() {
      host.stop();
      await Promise.all([closeServer(simulatorServer), closeServer(receiver)]);
    },
  };
}

/**
 * The harness for the enclosing describe block (or file): started in beforeAll, stopped in afterAll,
 * every fault switch turned off after each test. Use the handle inside tests and hooks only.
 */
export function useProviderHarness<S extends ProviderSimulator, R extends ConfigResult>(
  options: ProviderHarnessOptions<S, R>,
): ProviderHarness<S, SimulatorConfig<R>> {
  let current: ProviderHarness<S, SimulatorConfig<R>> | undefined;
  beforeAll(async () => {
    current = await startProviderHarness(options);
  });
  afterEach(() => current?.resetFaults());
  afterAll(async () => {
    await current?.stop();
  });
  return new Proxy({} as ProviderHarness<S, SimulatorConfig<R>>, {
    get(_target, key) {
      if (!current) throw new Error(`the ${options.code} harness is not started: use it inside tests and hooks`);
      const value: unknown = Reflect.get(current, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}
