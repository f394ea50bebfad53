/**
 * The client package's off-ramp against the real broker, as test/client/client.test.ts does the
 * on-ramp: the API, the simulated providers and an order worker on a Temporal dev server; the
 * integrator's webhook endpoint is the package's own middleware. Dictionaries, sell offers, the
 * idempotent sell order with its deposit, polling and the `kind: "off_ramp"` webhooks.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  compareDecimals,
  isSellOrderEvent,
  OnrampClient,
  ProblemError,
  webhookMiddleware,
  type CreateSellOrderRequest,
  type SellOrderStatusChangedEvent,
  type WebhookEvent,
} from '../../clients/typescript/src';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import type { LocalStack } from '../../src/dev/local-stack';
import { TEST_API_KEY } from '../helpers/config';
import { eventually } from '../helpers/http';
import { checkout } from '../helpers/orders';
import { SELL_ETH as ETH, SELL_EUR as EUR, SELL_REFUND_ADDRESS } from '../helpers/sell-orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: Server;
const events: WebhookEvent[] = [];

function client(options: Partial<ConstructorParameters<typeof OnrampClient>[0]> = {}): OnrampClient {
  return new OnrampClient({ baseUrl: stack.apiUrl, apiKey: TEST_API_KEY, ...options });
}

beforeAll(async () => {
  env = await startTemporal();
  receiver = createServer(webhookMiddleware(DEFAULT_DEV_WEBHOOK_SECRET, (event) => void events.push(event)));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  stack = await startTestStack(env, { env: { ONRAMP_WEBHOOK_URL: hooks } });
});

afterAll(async () => {
  await stack?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await env?.teardown();
});

const draft = (): CreateSellOrderRequest => ({
  provider_code: 'sandbox',
  from_currency: ETH,
  to_currency: EUR,
  from_amount: '0.5',
  refund_wallet_address: SELL_REFUND_ADDRESS,
  payout_method: 'sepa',
  country_code: 'DE',
  external_user_id: `seller-${randomUUID()}`,
  external_order_id: `sell-${randomUUID()}`,
});

const offersFor = (onramp: OnrampClient, body: CreateSellOrderRequest) =>
  onramp.sellOffers({
    external_user_id: body.external_user_id,
    currency_from: body.from_currency,
    currency_to: body.to_currency,
    amount_from: body.from_amount,
    country: body.country_code,
    payout_method: body.payout_method,
  });

const sellEvents = (orderId: string): SellOrderStatusChangedEvent[] => events.filter(isSellOrderEvent).filter((e) => e.data.id === orderId);

test('the off-ramp dictionaries: countries, currency pairs, payout methods with limits, providers', async () => {
  const onramp = client();
  expect((await onramp.sellCountries()).map((c) => c.code)).toContain('DE');
  const pairs = await onramp.sellCurrencyPairs({ country_code: 'DE' });
  const sandbox = pairs.find((p) => p.provider_code === 'sandbox');
  expect(sandbox?.crypto_currencies).toContain(ETH);
  expect(sandbox?.fiat_currencies).toContain(EUR);
  const methods = await onramp.payoutMethods({ country_code: 'DE', currency: EUR });
  const sepa = methods.find((m) => m.provider_code === 'sandbox' && m.code === 'sepa');
  expect(sepa?.limits).toEqual([{ currency: EUR, min: expect.stringMatching(/^\d+\.\d{2}$/), max: expect.stringMatching(/^\d+\.\d{2}$/) }]);
  expect((await onramp.sellProviders({ country_code: 'DE', from_currency: ETH, to_currency: EUR })).map((p) => p.code)).toContain(
    'sandbox',
  );
});

test('sell offers: the highest payout first; a provider left out comes with its reason', async () => {
  const onramp = client();
  const { offers } = await onramp.sellOffers({
    external_user_id: 'seller-1',
    currency_from: ETH,
    currency_to: EUR,
    amount_from: '0.5',
    country: 'DE',
  });
  expect(offers.map((o) => o.provider_code)).toContain('sandbox');
  for (let i = 1; i < offers.length; i++) {
    expect(compareDecimals(offers[i - 1]!.amount_expected_to, offers[i]!.amount_expected_to)).toBeGreaterThanOrEqual(0);
  }
  expect(offers.find((o) => o.provider_code === 'sandbox')?.payout_methods.map((m) => m.payout_method_code)).toContain('sepa');
  // A crypto amount far above every provider's limits: each is left out, with the reason.
  const tooMuch = await onramp.sellOffers({
    external_user_id: 'seller-1',
    currency_from: ETH,
    currency_to: EUR,
    amount_from: '100000',
    country: 'DE',
    provider_codes: 'sandbox',
  });
  expect(tooMuch.offers).toEqual([]);
  expect(tooMuch.leftOut).toEqual([expect.objectContaining({ provider_code: 'sandbox', code: 'limits' })]);
});

test('off-ramp problems are typed: a fiat currency sold, no live offer, a bad refund address, an unknown order', async () => {
  const onramp = client();
  const wrongWay = await onramp
    .sellOffers({ external_user_id: 'u1', currency_from: EUR, currency_to: ETH, amount_from: '0.5', country: 'DE' })
    .catch((e: unknown) => e);
  expect(wrongWay).toBeInstanceOf(ProblemError);
  expect(wrongWay).toMatchObject({ code: 'validation_error', status: 400 });
  expect((wrongWay as ProblemError).errors.map((e) => e.path)).toEqual(expect.arrayContaining(['currency_from']));

  // Not retried: a 4xx comes back at once.
  const sleeps: number[] = [];
  const patient = client({ sleep: (ms) => (sleeps.push(ms), Promise.resolve()) });
  await expect(patient.createSellOrder(draft())).rejects.toMatchObject({ code: 'offer_expired', status: 422 });
  expect(sleeps).toEqual([]);

  const body = { ...draft(), refund_wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' };
  await offersFor(onramp, body);
  await expect(onramp.createSellOrder(body)).rejects.toMatchObject({ code: 'invalid_wallet_address', status: 422 });
  await expect(onramp.sellOrder('sandbox', randomUUID())).rejects.toMatchObject({ code: 'not_found', status: 404 });
});

test('createSellOrder retries a lost answer with the same body; pay: the deposit, polling to complete, off_ramp webhooks', async () => {
  const sleeps: number[] = [];
  let answersLost = 0;
  // The first answer is lost after the broker made the order (a 503 from the load balancer in front).
  const losingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const path = new URL(input instanceof Request ? input.url : input).pathname;
    if (init?.method === 'POST' && path === '/api/off_ramp/orders' && answersLost++ === 0) {
      expect(response.status).toBe(200);
      const problem = {
        type: 'urn:onramp-broker:problem:service_unavailable',
        title: 'x',
        status: 503,
        detail: 'x',
        code: 'service_unavailable',
      };
      return new Response(JSON.stringify(problem), {
        status: 503,
        headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
      });
    }
    return response;
  };
  const onramp = client({ fetch: losingFetch, sleep: (ms) => (sleeps.push(ms), Promise.resolve()) });
  const body = draft();
  const { offers } = await offersFor(onramp, body);
  const order = await onramp.createSellOrder(body);
  expect(sleeps).toEqual([1000]);
  expect(order).toMatchObject({ kind: 'off_ramp', external_order_id: body.external_order_id, from_currency: ETH, to_currency: EUR });
  expect(order.to_amount).toBe(offers.find((o) => o.provider_code === 'sandbox')!.amount_expected_to);
  const deposit = order.deposit ?? (await onramp.waitForSellStatus('sandbox', order.id, 'waiting_for_deposit')).deposit;
  expect(deposit).toMatchObject({ network: 'ethereum', address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/) });

  await checkout(order.redirect_url, 'pay');
  const complete = await client().waitForSellStatus('sandbox', order.id, 'complete', {
    initialDelayMs: 100,
    maxDelayMs: 500,
    timeoutMs: 30_000,
  });
  expect(complete).toMatchObject({ status: 'complete', deposit, transaction_hash: expect.any(String) });

  const received = await eventually(() => {
    const mine = sellEvents(order.id);
    return Promise.resolve(mine.some((e) => e.data.status === 'complete') ? mine : undefined);
  }, 'the complete webhook');
  // Each change once, in order; the steps between the deposit and the payout may come as one change.
  expect(received.map((e) => e.data.sequence)).toEqual(received.map((_, i) => i + 1));
  expect(received.map((e) => e.data.status).slice(0, 2)).toEqual(['created', 'waiting_for_deposit']);
  expect(received.at(-1)!.data.status).toBe('complete');
  expect(received.at(-1)!.data).toMatchObject({ kind: 'off_ramp', deposit, refund_wallet_address: SELL_REFUND_ADDRESS });
  // A sell order is no buy order: the on-ramp's status call does not know it.
  await expect(client().order('sandbox', order.id)).rejects.toMatchObject({ code: 'not_found' });
});

test('fail: the sell order becomes failed with its reason; waitForSellStatus gives up with a timeout before', async () => {
  const onramp = client();
  const body = draft();
  await offersFor(onramp, body);
  const order = await onramp.createSellOrder(body);
  await expect(onramp.waitForSellStatus('sandbox', order.id, 'complete', { initialDelayMs: 50, timeoutMs: 200 })).rejects.toMatchObject({
    code: 'timeout',
  });
  await checkout(order.redirect_url, 'fail');
  const failed = await onramp.waitForSellStatus('sandbox', order.id, ['failed', 'refunded'], { initialDelayMs: 100, timeoutMs: 30_000 });
  expect(failed.status).toBe('failed');
  expect(failed.failure_reason).toEqual(expect.any(String));
});
