/**
 * The client package's OperatorClient (clients/typescript/src/operator.ts) against the real broker:
 * the API, the simulated providers and an order worker on a Temporal dev server, as in
 * client.test.ts. A review is opened as the order's workflow opens one (ReviewTeller, a
 * `payment_differs` notice), listed, read and acknowledged; poll, cancel and resend act on a real
 * order; the daily summary of today is read as JSON and CSV (the operator API's clock stands past
 * today's end, as in test/e2e/operator-summary.test.ts). Every request is recorded: its method,
 * path, query, credential and body are the documented ones, the operator key only as a bearer
 * token. Refusals come back as the API's problems; with Temporal out of reach (an API over
 * 127.0.0.1:1) as `service_unavailable` with its Retry-After.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { msToTs } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  OnrampClient,
  OperatorClient,
  ProblemError,
  webhookMiddleware,
  type CreateOrderRequest,
  type Order,
  type WebhookEvent,
} from '../../clients/typescript/src';
import { SUMMARY_CSV_COLUMNS } from '../../src/api/daily-summary-format';
import { buildApi } from '../../src/api/server';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../../src/config/env';
import { DEFAULT_DEV_OPERATOR_KEY, DEV_OPERATOR_ID } from '../../src/config/operators';
import type { LocalStack } from '../../src/dev/local-stack';
import { createLogger } from '../../src/logging';
import { createTemporalClient } from '../../src/temporal/connection';
import type { ReviewSubject } from '../../src/temporal/review-contract';
import { ReviewTeller } from '../../src/temporal/reviews';
import { TEST_API_KEY, testConfig } from '../helpers/config';
import { eventually } from '../helpers/http';
import { BTC_ADDRESS, checkout } from '../helpers/orders';
import { startTestStack } from '../helpers/stack';
import { startTemporal } from '../helpers/temporal';

const DAY_MS = 86_400_000;
const BEARER = `Bearer ${DEFAULT_DEV_OPERATOR_KEY}`;

let env: TestWorkflowEnvironment;
let stack: LocalStack;
let receiver: Server;
let teller: ReviewTeller;
let today: string;
const events: WebhookEvent[] = [];
/** Every order this file placed (all the dev integrator's, at the sandbox, today). */
const placed: Order[] = [];

interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | null;
  apiKey: string | null;
  contentType: string | null;
  body?: unknown;
  status?: number;
}
const requests: Recorded[] = [];

/** `fetch` that records each request (what the broker is sent) and its answer's status. */
const recordingFetch: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : input);
  const headers = new Headers(init?.headers);
  const entry: Recorded = {
    method: init?.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    authorization: headers.get('authorization'),
    apiKey: headers.get('x-api-key'),
    contentType: headers.get('content-type'),
    ...(typeof init?.body === 'string' ? { body: JSON.parse(init.body) as unknown } : {}),
  };
  requests.push(entry);
  const response = await fetch(input, init);
  entry.status = response.status;
  return response;
};

const operator = (operatorKey = DEFAULT_DEV_OPERATOR_KEY, baseUrl = stack.apiUrl) =>
  new OperatorClient({ baseUrl, operatorKey, fetch: recordingFetch });
const onramp = () => new OnrampClient({ baseUrl: stack.apiUrl, apiKey: TEST_API_KEY, fetch: recordingFetch });

/** The requests made while `act` ran. */
async function recorded(act: () => Promise<unknown>): Promise<Recorded[]> {
  const before = requests.length;
  await act();
  return requests.slice(before);
}

/** A sandbox order of the dev integrator, after its offer, as an integrator places one. */
async function placeOrder(): Promise<Order> {
  const client = onramp();
  const body: CreateOrderRequest = {
    provider_code: 'sandbox',
    from_currency: 1,
    to_currency: 13,
    from_amount: '100',
    wallet_address: BTC_ADDRESS,
    payment_method: 'card',
    country_code: 'GB',
    external_user_id: `u-${randomUUID()}`,
    external_order_id: `o-${randomUUID()}`,
  };
  await eventually(async () => {
    const { offers } = await client.offers({
      external_user_id: body.external_user_id,
      currency_from: body.from_currency,
      currency_to: body.to_currency,
      amount_from: body.from_amount,
      country: body.country_code,
      payment_method: body.payment_method,
    });
    return offers.some((o) => o.provider_code === 'sandbox') ? true : undefined;
  }, 'a sandbox offer');
  const order = await client.createOrder(body);
  placed.push(order);
  return order;
}

const subjectOf = (order: Order): ReviewSubject => ({ kind: 'order', orderId: order.id, providerCode: 'sandbox', integratorId: 'dev' });

/** What the order's workflow tells its review when the provider took another amount. */
const paymentDiffers = (order: Order) =>
  teller.notice(subjectOf(order), {
    reason: 'payment_differs',
    key: `payment_differs:${order.id}`,
    detail: 'the provider took 98.00 USD, not 100.00 USD',
    raisedAt: new Date().toISOString(),
    source: 'order',
  });

const queuedIds = async (client: OperatorClient) => {
  const ids: string[] = [];
  for await (const review of client.allQueuedReviews({ integrator_id: 'dev' })) ids.push(review.review_id);
  return ids;
};

beforeAll(async () => {
  // Every order of the file in one UTC day: a run starting just before midnight waits for the next day.
  const untilMidnight = DAY_MS - (Date.now() % DAY_MS);
  if (untilMidnight < 5 * 60_000) await new Promise((r) => setTimeout(r, untilMidnight + 1000));
  today = new Date().toISOString().slice(0, 10);
  const todayEnds = Date.parse(`${today}T00:00:00Z`) + DAY_MS;

  env = await startTemporal();
  receiver = createServer(
    webhookMiddleware(DEFAULT_DEV_WEBHOOK_SECRET, (event) => {
      events.push(event);
    }),
  );
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const base = testConfig({}, { ONRAMP_WEBHOOK_URL: hooks });
  stack = await startTestStack(env, {
    env: { ONRAMP_WEBHOOK_URL: hooks },
    // Today as if it had ended as long ago as its summary needs; the real clock once that is past.
    operatorClock: () => Math.max(Date.now(), todayEnds + base.dailySummaryLimits.settleMs),
  });
  // The dev server keeps closed workflows a day, too short to summarize a whole day.
  await env.client.workflowService.updateNamespace({
    namespace: stack.config.temporal.namespace,
    config: { workflowExecutionRetentionTtl: msToTs(30 * DAY_MS) },
  });
  teller = new ReviewTeller({ client: stack.client, taskQueue: stack.config.temporal.taskQueue, keepMs: stack.config.reviews.keepMs });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
  await env?.teardown();
});

describe('the review queue', () => {
  let first: Order;
  let second: Order;

  beforeAll(async () => {
    first = await placeOrder();
    second = await placeOrder();
    await paymentDiffers(first);
    await paymentDiffers(second);
  });

  test('reviewQueue: GET /api/operator/reviews with the filters, the operator key as a bearer token; the open review listed', async () => {
    const client = operator();
    const filters = { reason: 'payment_differs', provider_code: 'sandbox', integrator_id: 'dev', limit: 50 } as const;
    const page = await eventually(async () => {
      const answer = await client.reviewQueue(filters);
      return answer.reviews.some((r) => r.review_id === first.id) ? answer : undefined;
    }, 'the review in the queue');
    expect(page.reviews.find((r) => r.review_id === first.id)).toEqual({
      review_id: first.id,
      subject: { kind: 'order', provider_code: 'sandbox', order_id: first.id, integrator_id: 'dev' },
      open: [{ reason: 'payment_differs', detail: 'the provider took 98.00 USD, not 100.00 USD', raised_at: expect.any(String) }],
      opened_at: expect.any(String),
    });
    const [request] = await recorded(() => client.reviewQueue(filters));
    expect(request).toEqual({
      method: 'GET',
      path: '/api/operator/reviews',
      query: { reason: 'payment_differs', provider_code: 'sandbox', integrator_id: 'dev', limit: '50' },
      authorization: BEARER,
      apiKey: null,
      contentType: null,
      status: 200,
    });
    // Another reason's queue does not hold it.
    expect((await client.reviewQueue({ reason: 'open_too_long' })).reviews.map((r) => r.review_id)).not.toContain(first.id);
  });

  test('allQueuedReviews follows next_page_token page after page', async () => {
    const client = operator();
    await eventually(async () => ((await queuedIds(client)).includes(second.id) ? true : undefined), 'both reviews in the queue');
    const ids: string[] = [];
    const made = await recorded(async () => {
      for await (const review of client.allQueuedReviews({ integrator_id: 'dev', limit: 1 })) ids.push(review.review_id);
    });
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(made.length).toBeGreaterThanOrEqual(2);
    expect(made[0]!.query).toEqual({ integrator_id: 'dev', limit: '1' });
    for (const later of made.slice(1)) expect(later.query).toEqual({ integrator_id: 'dev', limit: '1', page_token: expect.any(String) });
    expect(made.every((r) => r.path === '/api/operator/reviews' && r.authorization === BEARER && r.status === 200)).toBe(true);
  });

  test('review: the reasons, the audit and the order as it stands', async () => {
    const client = operator();
    const made = await recorded(async () => {
      const record = await client.review(first.id);
      expect(record).toMatchObject({
        review_id: first.id,
        subject: { kind: 'order', order_id: first.id },
        open: ['payment_differs'],
        reasons: [{ reason: 'payment_differs', key: `payment_differs:${first.id}`, source: 'order' }],
        actions: [],
        order: { id: first.id, external_order_id: first.external_order_id },
      });
      expect(record.reasons[0]!.acknowledged).toBeUndefined();
    });
    expect(made).toEqual([
      expect.objectContaining({ method: 'GET', path: `/api/operator/reviews/${first.id}`, query: {}, authorization: BEARER, apiKey: null }),
    ]);
  });

  test('acknowledge: POST the note and reasons; the audit entry done, the review out of the queue; again is action_refused', async () => {
    const client = operator();
    const body = { note: 'checked with the provider: the customer paid 98.00', reasons: ['payment_differs' as const] };
    let entry!: Awaited<ReturnType<OperatorClient['acknowledge']>>;
    const made = await recorded(async () => {
      entry = await client.acknowledge(first.id, body);
    });
    expect(made).toEqual([
      {
        method: 'POST',
        path: `/api/operator/reviews/${first.id}/acknowledge`,
        query: {},
        authorization: BEARER,
        apiKey: null,
        contentType: 'application/json',
        body,
        status: 200,
      },
    ]);
    expect(entry).toEqual({
      request_id: expect.any(String),
      action: 'acknowledge',
      operator_id: DEV_OPERATOR_ID,
      note: body.note,
      reasons: ['payment_differs'],
      at: expect.any(String),
      outcome: { outcome: 'done', detail: 'acknowledged: payment_differs', at: expect.any(String) },
    });
    const record = await eventually(async () => {
      const r = await client.review(first.id);
      return r.open.length === 0 ? r : undefined;
    }, 'the reason acknowledged');
    expect(record.reasons[0]!.acknowledged).toEqual({
      operator_id: DEV_OPERATOR_ID,
      note: body.note,
      at: expect.any(String),
      request_id: entry.request_id,
    });
    expect(record.actions).toEqual([entry]);
    await eventually(async () => (!(await queuedIds(client)).includes(first.id) ? true : undefined), 'the review out of the queue');
    expect(await queuedIds(client)).toContain(second.id);

    const again = await client.acknowledge(first.id, { note: 'once more' }).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(ProblemError);
    expect(again).toMatchObject({ code: 'action_refused', status: 409, requestId: expect.any(String) });
  });
});

describe('actions on an order', () => {
  test('pollOrder: POST {} or {note}, answered 202 with the audit entry; its outcome comes to the review', async () => {
    const client = operator();
    const order = await placeOrder();
    const made = await recorded(async () => {
      const bare = await client.pollOrder(order.id);
      expect(bare).toEqual({ request_id: expect.any(String), action: 'poll', operator_id: DEV_OPERATOR_ID, at: expect.any(String) });
      const noted = await client.pollOrder(order.id, 'the customer says they paid');
      expect(noted).toMatchObject({ action: 'poll', note: 'the customer says they paid' });
    });
    expect(
      made.map(({ method, path, body, authorization, apiKey, contentType, status }) => ({
        method,
        path,
        body,
        authorization,
        apiKey,
        contentType,
        status,
      })),
    ).toEqual([
      {
        method: 'POST',
        path: `/api/operator/orders/${order.id}/poll`,
        body: {},
        authorization: BEARER,
        apiKey: null,
        contentType: 'application/json',
        status: 202,
      },
      {
        method: 'POST',
        path: `/api/operator/orders/${order.id}/poll`,
        body: { note: 'the customer says they paid' },
        authorization: BEARER,
        apiKey: null,
        contentType: 'application/json',
        status: 202,
      },
    ]);
    const record = await eventually(async () => {
      const r = await client.review(order.id);
      return r.actions.length === 2 && r.actions.every((a) => a.outcome) ? r : undefined;
    }, 'both polls settled');
    expect(record.actions.map((a) => [a.action, a.outcome?.outcome])).toEqual([
      ['poll', 'done'],
      ['poll', 'done'],
    ]);
  });

  test('resendWebhook: the latest webhook again, delivered to the integrator; the result and its audit entry', async () => {
    const client = operator();
    const order = await placeOrder();
    const mine = () => events.filter((e) => e.type === 'order.status_changed' && e.data.id === order.id).length;
    await eventually(() => Promise.resolve(mine() > 0 ? true : undefined), 'the first webhook');
    const before = mine();
    let result!: Awaited<ReturnType<OperatorClient['resendWebhook']>>;
    const made = await recorded(async () => {
      result = await client.resendWebhook(order.id, 'the integrator lost it');
    });
    expect(made).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: `/api/operator/orders/${order.id}/resend_webhook`,
        body: { note: 'the integrator lost it' },
        authorization: BEARER,
        apiKey: null,
        status: 200,
      }),
    ]);
    expect(result).toMatchObject({
      action: 'resend_webhook',
      operator_id: DEV_OPERATOR_ID,
      note: 'the integrator lost it',
      webhook_id: expect.any(String),
      sequence: expect.any(Number),
      delivered: true,
      status_code: 204,
      latency_ms: expect.any(Number),
      outcome: { outcome: 'done', detail: 'delivered: HTTP 204' },
    });
    expect(mine()).toBe(before + 1);
    const [bare] = await recorded(() => client.resendWebhook(order.id));
    expect(bare).toMatchObject({ body: {}, status: 200 });
  });

  test('cancelOrder: POST the note, 202; the provider cancels, and a poll of the final order is order_closed', async () => {
    const client = operator();
    const order = await placeOrder();
    let entry!: Awaited<ReturnType<OperatorClient['cancelOrder']>>;
    const made = await recorded(async () => {
      entry = await client.cancelOrder(order.id, 'the customer asked');
    });
    expect(made).toEqual([
      {
        method: 'POST',
        path: `/api/operator/orders/${order.id}/cancel`,
        query: {},
        authorization: BEARER,
        apiKey: null,
        contentType: 'application/json',
        body: { note: 'the customer asked' },
        status: 202,
      },
    ]);
    expect(entry).toEqual({
      request_id: expect.any(String),
      action: 'cancel',
      operator_id: DEV_OPERATOR_ID,
      note: 'the customer asked',
      at: expect.any(String),
    });
    const settled = await eventually(async () => {
      const r = await client.review(order.id);
      return r.actions.find((a) => a.request_id === entry.request_id && a.outcome);
    }, 'the cancellation settled');
    expect(settled.outcome!.outcome).toBe('done');
    const refused = await eventually(
      async () => {
        const err = await client.pollOrder(order.id).then(
          () => undefined,
          (e: unknown) => e,
        );
        return err instanceof ProblemError && err.code === 'order_closed' ? err : undefined;
      },
      'a poll refused once the order is final',
      30_000,
    );
    expect(refused).toMatchObject({ status: 409, detail: expect.any(String) });
  });

  test('cancelOrder of a completed order is order_closed; the order stays as it is', async () => {
    const client = operator();
    const order = await placeOrder();
    await checkout(order.redirect_url, 'pay');
    const complete = await onramp().waitForStatus('sandbox', order.id, 'complete', {
      initialDelayMs: 100,
      maxDelayMs: 500,
      timeoutMs: 30_000,
    });
    await expect(client.cancelOrder(order.id, 'too late')).rejects.toMatchObject({ code: 'order_closed', status: 409 });
    expect((await onramp().order('sandbox', order.id)).status).toBe(complete.status);
  });
});

describe('the daily summary', () => {
  test('dailySummary: GET with date, format=json and the filters; the orders of today counted', async () => {
    const client = operator();
    if (placed.length === 0) await placeOrder();
    let summary!: Awaited<ReturnType<OperatorClient['dailySummary']>>;
    const made = await recorded(async () => {
      summary = await client.dailySummary(today, { integrator_id: 'dev', provider_code: 'sandbox' });
    });
    expect(made).toEqual([
      {
        method: 'GET',
        path: '/api/operator/summaries/daily',
        query: { date: today, format: 'json', integrator_id: 'dev', provider_code: 'sandbox' },
        authorization: BEARER,
        apiKey: null,
        contentType: null,
        status: 200,
      },
    ]);
    expect(summary).toMatchObject({ date: today, integrator_id: 'dev', provider_codes: ['sandbox'] });
    expect(summary.rows).toEqual([
      expect.objectContaining({ integrator_id: 'dev', provider_code: 'sandbox', fiat_currency: 1, orders: placed.length }),
    ]);
    expect(summary.totals).toEqual([expect.objectContaining({ fiat_currency: 1, orders: placed.length })]);
    expect((await client.dailySummary(today, { integrator_id: 'nobody' })).rows).toEqual([]);
  });

  test('dailySummaryCsv: GET with format=csv, the body as a byte stream; a refused day is a problem, not a stream', async () => {
    const client = operator();
    let stream!: ReadableStream<Uint8Array>;
    const made = await recorded(async () => {
      stream = await client.dailySummaryCsv(today, { provider_code: 'sandbox' });
    });
    expect(made).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/api/operator/summaries/daily',
        query: { date: today, format: 'csv', provider_code: 'sandbox' },
        authorization: BEARER,
        apiKey: null,
        status: 200,
      }),
    ]);
    const csv = await new Response(stream).text();
    const lines = csv.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(SUMMARY_CSV_COLUMNS.join(','));
    expect(lines.slice(1)).toEqual([expect.stringMatching(new RegExp(`^${today},dev,sandbox,1,USD,${placed.length},`))]);

    const tomorrow = new Date(Date.parse(today) + DAY_MS).toISOString().slice(0, 10);
    const notEnded = await client.dailySummaryCsv(tomorrow).catch((err: unknown) => err);
    expect(notEnded).toBeInstanceOf(ProblemError);
    expect(notEnded).toMatchObject({ code: 'validation_error', status: 400, errors: [expect.objectContaining({ path: 'date' })] });
    await expect(client.dailySummary('2026-02-30')).rejects.toMatchObject({
      code: 'validation_error',
      errors: [expect.objectContaining({ path: 'date' })],
    });
  });
});

describe('problems', () => {
  test('a wrong key, or an integrator key, is unauthorized; the operator key opens nothing of the integrator API', async () => {
    await expect(operator('obo_wrong').reviewQueue()).rejects.toMatchObject({ name: 'ProblemError', code: 'unauthorized', status: 401 });
    await expect(operator(TEST_API_KEY).dailySummary(today)).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
    const asIntegrator = new OnrampClient({ baseUrl: stack.apiUrl, apiKey: DEFAULT_DEV_OPERATOR_KEY });
    await expect(asIntegrator.orders()).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
  });

  test('not_found and validation_error, with every field named; ids are sent URL-encoded', async () => {
    const client = operator();
    const unknown = randomUUID();
    await expect(client.review(unknown)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.acknowledge(unknown, { note: 'n' })).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.pollOrder(unknown)).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.cancelOrder(unknown, 'n')).rejects.toMatchObject({ code: 'not_found', status: 404 });
    await expect(client.resendWebhook(unknown)).rejects.toMatchObject({ code: 'not_found', status: 404 });

    const made = await recorded(async () => {
      const err = await client.review('no/such id').catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'validation_error', status: 400, errors: [expect.objectContaining({ path: 'review_id' })] });
    });
    expect(made[0]!.path).toBe('/api/operator/reviews/no%2Fsuch%20id');

    const order = placed[0] ?? (await placeOrder());
    await expect(client.cancelOrder(order.id, '   ')).rejects.toMatchObject({
      code: 'validation_error',
      errors: [expect.objectContaining({ path: 'note' })],
    });
    const queue = await client.reviewQueue({ limit: 0, page_token: 'not a token' }).catch((e: unknown) => e);
    expect(queue).toBeInstanceOf(ProblemError);
    expect((queue as ProblemError).errors.map((e) => e.path).sort()).toEqual(['limit', 'page_token']);
  });

  test('Temporal out of reach: service_unavailable with Retry-After; no API at all: network_error', async () => {
    const config = testConfig({ orderCreateTimeoutMs: 1000 });
    const app = buildApi(config, createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' }), createLogger('silent', 'test'));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = operator(DEFAULT_DEV_OPERATOR_KEY, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const err = await client.reviewQueue().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ProblemError);
      expect(err).toMatchObject({ code: 'service_unavailable', status: 503, retryAfterSeconds: expect.any(Number) });
      await expect(client.acknowledge(randomUUID(), { note: 'n' })).rejects.toMatchObject({ code: 'service_unavailable', status: 503 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await expect(operator(DEFAULT_DEV_OPERATOR_KEY, 'http://127.0.0.1:1').review(randomUUID())).rejects.toMatchObject({
      code: 'network_error',
      status: 0,
    });
  });
});
