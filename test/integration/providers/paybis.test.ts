/**
 * The Paybis adapter in simulator mode against the Paybis simulator over real HTTP on 127.0.0.1, with a
 * small HTTP receiver playing the broker's webhook endpoint. No Temporal.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { createPaybisAdapter, paybisConfig, PaybisEnvSchema } from '../../../src/providers/paybis';
import { PAYBIS_LIST_LIMIT } from '../../../src/providers/paybis/client';
import { paybisSimulatorKeys } from '../../../src/providers/paybis/config';
import {
  IgnoredWebhookError,
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
} from '../../../src/providers/types';
import { createPaybisSimulator } from '../../../src/simulators/paybis/server';
import { paybisSignature } from '../../../src/simulators/paybis/signing';
import { currencyId as idOf } from '../../helpers/currencies';
import { eventually } from '../../helpers/http';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { rejectionOf } from '../../helpers/rejection';
import { listAll, setBooks, transactionListSuite } from '../../helpers/transaction-list';

jest.setTimeout(20_000);

const GBP = currencyDictionary.fiat(idOf('GBP')) as FiatCurrency;
const BTC = currencyDictionary.crypto(idOf('BTC', 'bitcoin')) as CryptoCurrency;

const harness = useProviderHarness({
  code: 'paybis',
  config: (urls) => paybisConfig(PaybisEnvSchema.parse({}), { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
  simulator: (urls) =>
    createPaybisSimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: paybisSimulatorKeys(undefined),
      stepDelayMs: 40,
    }),
  adapter: (config) => createPaybisAdapter(config, currencyDictionary),
  orderOf: (webhook) => (JSON.parse(webhook.rawBody.toString('utf8')) as { data: { requestId: string } }).data.requestId,
});

function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: GBP,
    crypto: BTC,
    fiatAmount: '150.00',
    walletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
    paymentMethod: 'card',
    country: 'GB',
    externalUserId: 'user-42',
    extras: {},
    ...overrides,
  };
}

describe('catalogue and quotes', () => {
  test('maps Paybis codes, fiat and methods to the broker ids', async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.crypto).toEqual(expect.arrayContaining([idOf('BTC', 'bitcoin'), idOf('USDT', 'tron'), idOf('USDC', 'solana')]));
    expect(catalogue.fiat).toEqual(expect.arrayContaining([idOf('GBP'), idOf('EUR'), idOf('USD')]));
    expect(catalogue.paymentMethods.map((m) => m.code).sort()).toEqual(['apple_pay', 'bank_transfer', 'card', 'google_pay', 'pix', 'sepa']);
  });

  test('a quote in decimal strings, fees in fiat, with Paybis quote id', async () => {
    const quote = await harness.adapter.getQuote({
      fiat: GBP,
      crypto: BTC,
      fiatAmount: '100.00',
      paymentMethod: 'card',
      country: 'GB',
      externalUserId: 'u',
    });
    expect(quote).toMatchObject({ fiatAmount: '100', paymentMethod: 'card', processingFee: '4.49' });
    expect(quote.providerQuoteId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('an amount under the limits is refused with the method limits', async () => {
    const error = await rejectionOf(
      harness.adapter.getQuote({ fiat: GBP, crypto: BTC, fiatAmount: '1', paymentMethod: 'card', country: 'GB', externalUserId: 'u' }),
      ProviderRejectedError,
    );
    expect(error.code).toBe('limits');
    expect(error.details.minAmount).toBeDefined();
  });

  test('an outage is ProviderUnavailableError', async () => {
    harness.simulator.faults.errorRate = 1;
    await expect(harness.adapter.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);
  });
});

describe('orders', () => {
  test('a signed request, then the widget walks to completed with signed webhooks; the lookup agrees', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    expect(order).toMatchObject({ orderId: request.orderId, providerStatus: 'created', status: 'created' });
    expect(order.redirectUrl).toBe(`${harness.urls.simulatorUrl}/paybis/widget/?requestId=${order.providerOrderId}`);
    await expect(harness.adapter.getOrder(request.orderId, order.providerOrderId)).resolves.toMatchObject({ status: 'created' });

    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    const events = await harness.waitForEvents(order.providerOrderId as string, 3);
    expect(events.map((e) => e.providerStatus)).toEqual(['started', 'paid', 'completed']);
    expect(events.map((e) => e.status)).toEqual(['pending', 'processing', 'complete']);
    expect(events.every((e) => e.orderId === request.orderId)).toBe(true);
    expect(events[2]).toMatchObject({
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      reported: {
        walletAddress: request.walletAddress,
        fiatCurrency: idOf('GBP'),
        cryptoCurrency: idOf('BTC', 'bitcoin'),
        fiatAmount: '150.00',
      },
    });
    await expect(harness.adapter.getOrder(request.orderId, order.providerOrderId)).resolves.toMatchObject({
      orderId: request.orderId,
      status: 'complete',
      reported: { walletAddress: request.walletAddress, fiatAmount: '150.00' },
    });
  });

  test("the customer's KYC webhooks are verified and acknowledged, not refused: Paybis does not retry them", async () => {
    const request = orderRequest({ externalUserId: `user-${randomUUID()}` });
    const order = await harness.adapter.createOrder(request);
    await checkout(order.redirectUrl, 'pay');
    await harness.waitForEvents(order.providerOrderId as string, 3);
    const bodies = harness.webhooks.map((w) => JSON.parse(w.rawBody.toString('utf8')) as { event: string; data: Record<string, string> });
    const kyc = bodies.filter((b) => b.event === 'VERIFICATION_STATUS_UPDATED' && b.data.partnerUserId === request.externalUserId);
    expect(kyc.map((b) => b.data.status)).toEqual(['started', 'approved']);
    expect(harness.refusals).toEqual([]);
    // The broker has the completed event once it answered; the simulator records that answer just after.
    await harness.simulator.webhooks.drain();
    const answers = harness.simulator.webhooks.attempts
      .filter((a) => a.orderKey === order.providerOrderId)
      .map((a) => [a.status, a.httpStatus]);
    expect(answers).toEqual([
      ['verification:started', 200],
      ['verification:approved', 200],
      ['started', 200],
      ['paid', 200],
      ['completed', 200],
    ]);
  });

  test('a KYC event: genuine, it is ignored (acknowledged); forged, it is refused', async () => {
    const body = JSON.stringify({
      event: 'VERIFICATION_STATUS_UPDATED',
      data: { partnerUserId: 'user-42', status: 'approved' },
      timestamp: 1,
    });
    const genuine = paybisSignature(body, paybisSimulatorKeys(undefined).webhookSigningKey);
    await expect(
      harness.adapter.parseWebhook({ headers: { 'x-request-signature': genuine }, rawBody: Buffer.from(body), query: {} }),
    ).rejects.toBeInstanceOf(IgnoredWebhookError);
    const forged = paybisSignature(body, generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    await expect(
      harness.adapter.parseWebhook({ headers: { 'x-request-signature': forged }, rawBody: Buffer.from(body), query: {} }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  test('a payment declined before payment: its webhook is left to the lookup, which reports an unpaid end (expired)', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    await checkout(order.redirectUrl, 'decline');
    const requestId = order.providerOrderId as string;
    await eventually(() => Promise.resolve(harness.ignored.some((i) => i.error.orderId === request.orderId) || undefined), 'ignored');
    expect(await harness.eventsFor(requestId)).toEqual([]);
    const snapshot = await harness.adapter.getOrder(request.orderId, requestId);
    expect(snapshot).toMatchObject({ providerStatus: 'payment_error', status: 'expired' });
    expect(snapshot.failureReason).toBeUndefined();
  });

  test('a payment that Paybis then rejects: its webhook is left to the lookup, which shows it paid: failed', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    await checkout(order.redirectUrl, 'fail');
    const requestId = order.providerOrderId as string;
    await eventually(() => Promise.resolve(harness.ignored.some((i) => i.error.orderId === request.orderId) || undefined), 'ignored');
    expect((await harness.eventsFor(requestId)).map((e) => e.providerStatus)).toEqual(['started', 'paid']);
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({
      providerStatus: 'rejected',
      status: 'failed',
      failureReason: 'rejected_by_provider',
    });
  });

  test('a request with a cancelled transaction, then a paid one: the cancellation never fails the order', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    const requestId = order.providerOrderId as string;
    await checkout(order.redirectUrl, 'expire');
    await eventually(() => Promise.resolve(harness.ignored.some((i) => i.error.orderId === request.orderId) || undefined), 'ignored');
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({ status: 'expired' });

    // The same widget again: a second transaction under the same request id, paid this time.
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    const events = await harness.waitForEvents(requestId, 3);
    expect(events.map((e) => e.providerStatus)).toEqual(['started', 'paid', 'completed']);
    expect(harness.simulator.requests.get(requestId)!.transactions.map((tx) => tx.invoice.slice(-3))).toEqual(['TX1', 'TX2']);
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({ status: 'complete' });
  });

  test('a transaction rejected before payment, then a paid one: the rejection never fails the order', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    const requestId = order.providerOrderId as string;
    // Paybis's compliance rejected the first attempt before any payment (no paidAt in the list).
    const simulated = harness.simulator.requests.get(requestId)!;
    simulated.transactions.push({ id: randomUUID(), invoice: 'PB000000000000TX1', status: 'rejected', hash: null, createdAt: new Date() });
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({
      providerStatus: 'rejected',
      status: 'expired',
    });
    simulated.transactions.push({ id: randomUUID(), invoice: 'PB000000000000TX2', status: 'started', hash: null, createdAt: new Date() });
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({
      providerStatus: 'started',
      status: 'pending',
    });
    simulated.transactions[1]!.status = 'completed';
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({ status: 'complete' });
  });

  test('a transaction started later in a paid request (anyone with the widget URL can) does not displace the paid one', async () => {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    const requestId = order.providerOrderId as string;
    await checkout(order.redirectUrl, 'pay');
    await harness.waitForEvents(requestId, 3);
    const simulated = harness.simulator.requests.get(requestId)!;
    simulated.transactions.push({ id: randomUUID(), invoice: 'PB000000000000TX2', status: 'started', hash: null, createdAt: new Date() });
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({ status: 'complete' });
  });

  test("the lookup's window starts at the order's creation: a busy merchant's older transactions do not hide the order's", async () => {
    const orderCreatedAt = new Date().toISOString();
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    const requestId = order.providerOrderId as string;
    // 600 transactions of other requests the day before: more than a lookup reads, all in its old 7-day window.
    const template = harness.simulator.requests.get(requestId)!;
    const busy = Array.from({ length: 600 }, (_, i) => `busy-${i}-${randomUUID()}`);
    const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
    busy.forEach((id, i) =>
      harness.simulator.requests.set(id, {
        ...template,
        requestId: id,
        partnerTransactionId: randomUUID(),
        transactions: [
          {
            id: randomUUID(),
            invoice: `PB${String(i).padStart(12, '0')}TX1`,
            status: 'completed',
            hash: null,
            createdAt: new Date(dayAgo + i * 1000),
          },
        ],
      }),
    );
    try {
      await checkout(order.redirectUrl, 'pay');
      await harness.waitForEvents(requestId, 3);
      await expect(harness.adapter.getOrder(request.orderId, requestId, { orderCreatedAt })).resolves.toMatchObject({
        providerOrderId: requestId,
        status: 'complete',
      });
    } finally {
      for (const id of busy) harness.simulator.requests.delete(id);
    }
  });

  test('a webhook signed with another key is refused', async () => {
    const order = await harness.adapter.createOrder(orderRequest());
    const body = JSON.stringify({
      event: 'TRANSACTION_STATUS_CHANGED',
      data: {
        requestId: order.providerOrderId,
        partnerTransactionId: order.orderId,
        transaction: { status: 'completed', flow: 'buyCrypto' },
      },
    });
    await expect(
      harness.adapter.parseWebhook({ headers: { 'x-request-signature': 'AAAA' }, rawBody: Buffer.from(body), query: {} }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  test('a genuine webhook that names no partner transaction id is about no request of the broker: ignored', async () => {
    const body = JSON.stringify({
      event: 'TRANSACTION_STATUS_CHANGED',
      data: { requestId: randomUUID(), transaction: { status: 'completed', flow: 'buyCrypto' } },
    });
    const signature = paybisSignature(body, paybisSimulatorKeys(undefined).webhookSigningKey);
    await expect(
      harness.adapter.parseWebhook({ headers: { 'x-request-signature': signature }, rawBody: Buffer.from(body), query: {} }),
    ).rejects.toBeInstanceOf(IgnoredWebhookError);
  });

  test('without a request id there is nothing to look up', async () => {
    await expect(harness.adapter.getOrder(randomUUID())).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('transaction list (GET /v2/transactions)', () => {
  /** An order placed and paid in the widget, its three webhooks in. */
  async function paidOrder() {
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    const events = await harness.waitForEvents(order.providerOrderId as string, 3);
    expect(events.map((e) => `${e.providerStatus}:${e.status}`).at(-1)).toBe('completed:complete');
    return { request, requestId: order.providerOrderId as string };
  }

  transactionListSuite({
    harness: () => harness,
    paidOrder: async () => {
      const { request } = await paidOrder();
      return { orderId: request.orderId, fiatAmount: request.fiatAmount };
    },
    // Rejected after the payment (the list shows it paid): the order failed with money moved.
    driftedStatus: { provider: 'rejected', broker: 'failed' },
    phantomStatus: 'complete',
    pageLimit: PAYBIS_LIST_LIMIT,
  });

  test('each transaction of a request is its own row, under the request id and our order id', async () => {
    const from = Date.now() - 1_000;
    const request = orderRequest();
    const order = await harness.adapter.createOrder(request);
    const requestId = order.providerOrderId as string;
    await checkout(order.redirectUrl, 'expire');
    await eventually(() => Promise.resolve(harness.ignored.some((i) => i.error.orderId === request.orderId) || undefined), 'ignored');
    await checkout(order.redirectUrl, 'pay');
    await harness.waitForEvents(requestId, 3);
    const listed = (await listAll(harness.adapter, { fromMs: from, toMs: Date.now() + 60_000 })).filter(
      (t) => t.orderId === request.orderId,
    );
    expect(listed.map((t) => [t.providerOrderId, t.providerStatus, t.status])).toEqual([
      [requestId, 'cancelled', 'expired'],
      [requestId, 'completed', 'complete'],
    ]);
  });

  test("the books switches are Paybis's one record: its status lookup, which reads the same list, sees them too", async () => {
    const { request, requestId } = await paidOrder();
    await setBooks(harness, request.orderId, { status: 'rejected' });
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({
      providerStatus: 'rejected',
      status: 'failed',
    });
    await setBooks(harness, request.orderId, { dropped: true });
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({ status: 'created' });
    await setBooks(harness, request.orderId, {});
    await expect(harness.adapter.getOrder(request.orderId, requestId)).resolves.toMatchObject({ status: 'complete' });
  });

  test("the simulator's list wants the API key, and refuses bad parameters with a 422 in Paybis's error shape", async () => {
    const url = `${harness.config.apiUrl}/v2/transactions`;
    const range = 'from=2025-01-01T00:00:00Z&to=2025-01-02T00:00:00Z';
    expect((await fetch(`${url}?${range}`)).status).toBe(401);
    const get = async (query: string) => {
      const res = await fetch(`${url}?${query}`, { headers: { authorization: harness.config.apiKey } });
      return { status: res.status, body: await res.json() };
    };
    const refused = { status: 422, body: { code: 'VALIDATION_ERROR', message: expect.any(String) } };
    for (const query of [
      'from=2025-01-01T00:00:00Z',
      'from=yesterday&to=2025-01-02T00:00:00Z',
      'from=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z',
      `${range}&limit=0`,
      `${range}&limit=101`,
      `${range}&limit=ten`,
      `${range}&cursor=forged`,
    ]) {
      expect(await get(query)).toEqual(refused);
    }
    expect(await get(`${range}&limit=1`)).toMatchObject({ status: 200, body: { data: [], meta: { nextCursor: null } } });
  });
});
