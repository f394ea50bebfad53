import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { CryptoCurrency, FiatCurrency } from '../../../src/domain/currency';
import { createOnrampMoneyAdapter, onrampMoneyConfig, ONRAMP_MONEY_SIMULATOR_CREDENTIALS } from '../../../src/providers/onramp_money';
import { HISTORY_PAGE_SIZE } from '../../../src/providers/onramp_money/client';
import { signedRequestHeaders } from '../../../src/providers/onramp_money/signing';
import {
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
} from '../../../src/providers/types';
import { createOnrampMoneySimulator } from '../../../src/simulators/onramp_money/server';
import { nextOrderId } from '../../../src/simulators/onramp_money/transactions';
import { eventually } from '../../helpers/http';
import { rejectionOf } from '../../helpers/rejection';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { addPhantom, listAll, setBooks, transactionListSuite } from '../../helpers/transaction-list';

const fiat = (id: number) => currencyDictionary.fiat(id) as FiatCurrency;
const crypto = (id: number) => currencyDictionary.crypto(id) as CryptoCurrency;
const EUR = fiat(2);
const INR = fiat(12);
const BTC = crypto(13);
const USDT_POLYGON = crypto(60);

const harness = useProviderHarness({
  code: 'onramp_money',
  config: (urls) => onrampMoneyConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: 'http://127.0.0.1:3000' }),
  simulator: (urls) =>
    createOnrampMoneySimulator({
      publicUrl: urls.publicUrl,
      brokerWebhookUrl: urls.webhookUrl,
      credentials: ONRAMP_MONEY_SIMULATOR_CREDENTIALS,
      stepDelayMs: 30,
    }),
  adapter: (config) => createOnrampMoneyAdapter(config, currencyDictionary),
});

function orderRequest(overrides: Partial<CreateProviderOrderRequest> = {}): CreateProviderOrderRequest {
  return {
    orderId: randomUUID(),
    fiat: EUR,
    crypto: BTC,
    fiatAmount: '100.00',
    walletAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    paymentMethod: 'sepa',
    country: 'DE',
    externalUserId: 'user-1',
    extras: {},
    ...overrides,
  };
}

async function openOrder(overrides: Partial<CreateProviderOrderRequest> = {}) {
  const request = orderRequest(overrides);
  const order = await harness.adapter.createOrder(request);
  const page = await fetch(order.redirectUrl);
  expect(page.status).toBe(200);
  await page.text();
  return { request, order };
}

/** The simulator's transactions under one merchantRecognitionId, oldest first. */
const transactionsOf = (orderId: string) =>
  [...harness.simulator.transactions.values()].filter((tx) => tx.merchantRecognitionId === orderId).sort((a, b) => a.orderId - b.orderId);

const statusOf = async (orderId: string) => (await harness.adapter.getOrder(orderId)).status;

describe('Onramp.money adapter against the simulator', () => {
  test('catalogue maps fiat types, coins on chains and methods to broker ids and codes', async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.fiat.sort((a, b) => a - b)).toEqual([2, 8, 11, 12]); // EUR, BRL, TRY, INR
    expect(catalogue.crypto).toEqual(expect.arrayContaining([13, 14, 57, 15, 61, 16, 60, 65, 17, 66, 24, 18, 19, 74, 20]));
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['IN', 'TR', 'BR', 'DE', 'FR']));
    const methods = Object.fromEntries(catalogue.paymentMethods.map((m) => [m.code, m]));
    expect(Object.keys(methods).sort()).toEqual(['bank_transfer', 'pix', 'sepa', 'upi']);
    expect(Object.keys(methods.sepa!.limits)).toEqual(['2']);
    expect(methods.upi!.limits[12]).toEqual({ min: '1008', max: '504000' });
  });

  test('quotes with fees in fiat, and refuses an amount out of limits with the limits', async () => {
    const quote = await harness.adapter.getQuote({
      fiat: INR,
      crypto: USDT_POLYGON,
      fiatAmount: '5000',
      paymentMethod: 'upi',
      country: 'IN',
      externalUserId: 'u',
    });
    expect(quote).toMatchObject({ fiatAmount: '5000', processingFee: '74.5', networkFee: '29.4', paymentMethod: 'upi' });
    expect(Number(quote.cryptoAmount)).toBeGreaterThan(50);

    const refusal = await rejectionOf(
      harness.adapter.getQuote({ fiat: EUR, crypto: BTC, fiatAmount: '5', paymentMethod: 'sepa', country: 'DE', externalUserId: 'u' }),
      ProviderRejectedError,
    );
    expect(refusal).toMatchObject({ code: 'limits', details: { minAmount: '11.04', maxAmount: '5520.00' } });
  });

  test('createOrder gives the same widget URL twice; pay reaches complete, with one webhook at completion only', async () => {
    const request = orderRequest();
    const first = await harness.adapter.createOrder(request);
    expect((await harness.adapter.createOrder(request)).redirectUrl).toBe(first.redirectUrl);
    expect(first).toMatchObject({ orderId: request.orderId, status: 'created', providerStatus: 'widget:not_opened' });
    expect(new URL(first.redirectUrl).searchParams.get('merchantRecognitionId')).toBe(request.orderId);
    expect(await harness.adapter.getOrder(request.orderId)).toEqual({
      orderId: request.orderId,
      providerStatus: 'widget:not_opened',
      status: 'created',
    });

    const page = await fetch(first.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-action="pay"');
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'pending', providerStatus: '0' });

    const seen = new Set<string>();
    const paid = await checkout(first.redirectUrl, 'pay');
    expect(paid.status).toBe(200);
    await eventually(async () => {
      const snapshot = await harness.adapter.getOrder(request.orderId);
      seen.add(snapshot.status);
      return snapshot.providerStatus === '16' ? true : undefined;
    }, 'webhook sent (16)');
    expect(seen).toContain('complete');
    const events = await harness.waitForEvents(request.orderId, 1);
    expect(events.map((e) => [e.providerStatus, e.status])).toEqual([['15', 'complete']]);
    expect(events[0]!.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(events[0]!.reported).toEqual({
      walletAddress: request.walletAddress,
      cryptoCurrency: BTC.id,
      fiatCurrency: EUR.id,
      fiatAmount: '100',
    });
    const snapshot = await harness.adapter.getOrder(request.orderId);
    expect(snapshot).toMatchObject({ orderId: request.orderId, status: 'complete', transactionHash: events[0]!.transactionHash });
    expect((await checkout(first.redirectUrl, 'pay')).status).toBe(409);
  });

  test('fail, mismatch, expire and abandon are reached by polling, without webhooks', async () => {
    const cases = [
      ['fail', { status: 'failed', failureReason: 'kyc_name_mismatch', providerStatus: '-3' }],
      ['mismatch', { status: 'failed', failureReason: 'amount_mismatch', providerStatus: '-4' }],
      ['expire', { status: 'expired', providerStatus: '-1' }],
      ['abandon', { status: 'expired', providerStatus: '-2' }],
    ] as const;
    for (const [action, expected] of cases) {
      const { request, order } = await openOrder();
      expect((await checkout(order.redirectUrl, action)).status).toBe(200);
      const snapshot = await eventually(async () => {
        const s = await harness.adapter.getOrder(request.orderId);
        return s.providerStatus === expected.providerStatus ? s : undefined;
      }, action);
      expect(snapshot).toMatchObject(expected);
      expect(await harness.eventsFor(request.orderId)).toEqual([]);
    }
  });

  test('the widget gone through again after an expiry: a pinned lookup reads its own transaction', async () => {
    const { request, order } = await openOrder();
    const first = await harness.adapter.getOrder(request.orderId);
    expect(first).toMatchObject({ status: 'pending', providerStatus: '0' });
    const pinned = first.providerOrderId!;
    expect((await checkout(order.redirectUrl, 'expire')).status).toBe(200);
    await eventually(
      async () => ((await harness.adapter.getOrder(request.orderId, pinned)).providerStatus === '-1' ? true : undefined),
      'first transaction timed out',
    );

    // The same widget URL, paid this time: a second transaction under the same merchantRecognitionId.
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    const [expired, paid] = transactionsOf(request.orderId);
    expect(String(expired!.orderId)).toBe(pinned);
    expect(paid).toBeDefined();
    await harness.waitForEvents(request.orderId, 1);

    expect(await harness.adapter.getOrder(request.orderId, pinned)).toMatchObject({
      orderId: request.orderId,
      providerOrderId: pinned,
      status: 'expired',
      providerStatus: '-1',
    });
    expect(await harness.adapter.getOrder(request.orderId, String(paid!.orderId))).toMatchObject({
      providerOrderId: String(paid!.orderId),
      status: 'complete',
    });
    // Nothing pinned: the transaction that did not end unpaid.
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ providerOrderId: String(paid!.orderId), status: 'complete' });
  });

  test('transactions opened later under the same order id (the widget URL is unsigned) never displace a paid one', async () => {
    const { request, order } = await openOrder();
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    await harness.waitForEvents(request.orderId, 1);
    const [paid] = transactionsOf(request.orderId);
    // Someone goes through the widget URL twice more: two newer transactions, started and left.
    for (const orderId of [nextOrderId(), nextOrderId()]) {
      harness.simulator.transactions.set(String(orderId), {
        ...paid!,
        orderId,
        status: 0,
        transactionHash: undefined,
        createdAt: new Date(),
      });
    }
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ providerOrderId: String(paid!.orderId), status: 'complete' });
  });

  test('of two live transactions of one order, the lookup reads the first the customer started', async () => {
    const { request } = await openOrder();
    const [first] = transactionsOf(request.orderId);
    const later = nextOrderId();
    harness.simulator.transactions.set(String(later), { ...first!, orderId: later, createdAt: new Date() });
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ providerOrderId: String(first!.orderId), status: 'pending' });
  });

  test('hold and refund are not Onramp.money statuses: the checkout refuses them', async () => {
    const { order } = await openOrder();
    for (const action of ['hold', 'refund']) {
      const refused = await checkout(order.redirectUrl, action);
      expect(refused.status).toBe(409);
      expect((refused.body.error as { allowed: string[] }).allowed).toEqual(['pay', 'fail', 'mismatch', 'expire', 'abandon']);
    }
  });

  test('after the paid* switches, the lookup and the webhook report what was really paid', async () => {
    const { request, order } = await openOrder();
    Object.assign(harness.simulator.faults, {
      paidFiatAmount: '160.25',
      paidFiatCurrency: 'INR',
      paidWalletAddress: 'bc1qattackeraddress000000000000000000000000',
    });
    try {
      await checkout(order.redirectUrl, 'pay');
      const [event] = await harness.waitForEvents(request.orderId, 1);
      const paid = {
        walletAddress: 'bc1qattackeraddress000000000000000000000000',
        cryptoCurrency: BTC.id,
        fiatCurrency: INR.id,
        fiatAmount: '160.25',
      };
      expect(event!.reported).toEqual(paid);
      expect((await harness.adapter.getOrder(request.orderId)).reported).toEqual(paid);
    } finally {
      Object.assign(harness.simulator.faults, { paidFiatAmount: '', paidFiatCurrency: '', paidWalletAddress: '' });
    }
  });

  test('a lookup in a status Onramp.money does not document fails instead of guessing', async () => {
    const { request } = await openOrder();
    transactionsOf(request.orderId)[0]!.status = 7;
    await expect(harness.adapter.getOrder(request.orderId)).rejects.toThrow(/\(7\)/);
  });

  test('the simulator refuses a wrong API key, a wrong signature, a stale payload and a body other than the signed one', async () => {
    const url = `${harness.urls.simulatorUrl}/onramp_money/onramp/api/v2/common/transaction/allConfigMapping`;
    const { apiKey, apiSecret } = ONRAMP_MONEY_SIMULATOR_CREDENTIALS;
    const post = (headers: Record<string, string>, body: unknown = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect((await post({ ...signedRequestHeaders(apiKey, apiSecret, {}) })).status).toBe(200);
    expect((await post({ ...signedRequestHeaders('wrong', apiSecret, {}) })).status).toBe(401);
    expect((await post({ ...signedRequestHeaders(apiKey, 'wrong', {}) })).status).toBe(401);
    expect((await post({ ...signedRequestHeaders(apiKey, apiSecret, {}, Date.now() - 3_600_000) })).status).toBe(401);
    expect((await post({ ...signedRequestHeaders(apiKey, apiSecret, { type: 1 }) }, { type: 2 })).status).toBe(401);

    const wrongSecret = createOnrampMoneyAdapter({ ...harness.config, apiSecret: 'wrong' }, currencyDictionary);
    await expect(wrongSecret.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);
    const wrongApp = new URL((await harness.adapter.createOrder(orderRequest())).redirectUrl);
    wrongApp.searchParams.set('appId', '1');
    expect((await fetch(wrongApp)).status).toBe(403);
  });

  test('a forged webhook is refused by the adapter', async () => {
    const payload = Buffer.from(JSON.stringify({ orderId: 1, status: 15, merchantRecognitionId: randomUUID() })).toString('base64');
    const forged = { 'x-onramp-payload': payload, 'x-onramp-signature': 'ab'.repeat(64) };
    await expect(harness.adapter.parseWebhook({ headers: forged, rawBody: Buffer.from('{}'), query: {} })).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
    await expect(harness.adapter.parseWebhook({ headers: {}, rawBody: Buffer.from('{}'), query: {} })).rejects.toBeInstanceOf(
      WebhookVerificationError,
    );
  });

  test('fault switches: outages become ProviderUnavailableError; dropped webhooks leave polling working', async () => {
    const faults = (body: object) =>
      fetch(`${harness.urls.simulatorUrl}/onramp_money/_simulator/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await faults({ errorRate: 1 });
    await expect(
      harness.adapter.getQuote({ fiat: EUR, crypto: BTC, fiatAmount: '100', paymentMethod: 'sepa', country: 'DE', externalUserId: 'u' }),
    ).rejects.toBeInstanceOf(ProviderUnavailableError);
    await expect(harness.adapter.getOrder(randomUUID())).rejects.toBeInstanceOf(ProviderUnavailableError);

    await faults({ errorRate: 0, dropWebhooks: true });
    const { request, order } = await openOrder();
    await checkout(order.redirectUrl, 'pay');
    await eventually(async () => ((await statusOf(request.orderId)) === 'complete' ? true : undefined), 'complete by polling');
    expect(await harness.eventsFor(request.orderId)).toEqual([]);
    await faults({ dropWebhooks: false });
  });
});

describe('transaction list (POST /onramp/api/v1/transaction/merchantHistory since)', () => {
  /** Places an order, pays it through the widget and waits for its walk's end (16, webhook sent). */
  async function paidOrder() {
    const { request, order } = await openOrder();
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    await harness.waitForEvents(request.orderId, 1);
    await eventually(
      async () => ((await harness.adapter.getOrder(request.orderId)).providerStatus === '16' ? true : undefined),
      'webhook sent (16)',
    );
    return { request, order };
  }

  const recent = (fromMs: number) => ({ fromMs, toMs: Date.now() + 60_000 });

  transactionListSuite({
    harness: () => harness,
    paidOrder: async () => {
      const { request } = await paidOrder();
      return { orderId: request.orderId, fiatAmount: request.fiatAmount };
    },
    // -4: the customer sent another amount; the lookup's mapping makes it a failure.
    driftedStatus: { provider: '-4', broker: 'failed' },
    phantomStatus: 'complete',
    pageLimit: HISTORY_PAGE_SIZE,
  });

  test('the list says what a status lookup says of the same order', async () => {
    const from = Date.now() - 1_000;
    const { request } = await paidOrder();
    const { orderId, providerOrderId, providerOrderCreatedAt, ...looked } = await harness.adapter.getOrder(request.orderId);
    const listed = (await listAll(harness.adapter, recent(from))).filter((t) => t.orderId === orderId);
    expect(listed).toEqual([{ ...looked, orderId, providerOrderId, createdAt: providerOrderCreatedAt }]);
  });

  test('each transaction of a widget gone through twice is listed, under the one order id', async () => {
    const from = Date.now() - 1_000;
    const { request, order } = await openOrder();
    expect((await checkout(order.redirectUrl, 'expire')).status).toBe(200);
    await eventually(async () => ((await statusOf(request.orderId)) === 'expired' ? true : undefined), 'timed out (-1)');
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    await harness.waitForEvents(request.orderId, 1);
    const listed = (await listAll(harness.adapter, recent(from))).filter((t) => t.orderId === request.orderId);
    expect(listed.map((t) => t.providerOrderId).sort()).toEqual(
      transactionsOf(request.orderId)
        .map((tx) => String(tx.orderId))
        .sort(),
    );
    expect(listed.map((t) => t.status).sort()).toEqual(['complete', 'expired']);
  });

  test('Onramp.money keeps one record: the books switches are what a status lookup sees too', async () => {
    const { request } = await paidOrder();
    try {
      await setBooks(harness, request.orderId, { status: '-4', fiatAmount: '99.5' });
      expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({
        status: 'failed',
        providerStatus: '-4',
        failureReason: 'amount_mismatch',
        reported: { fiatAmount: '99.5' },
      });
      await setBooks(harness, request.orderId, { dropped: true });
      expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'created', providerStatus: 'widget:not_opened' });
    } finally {
      await setBooks(harness, request.orderId, {});
    }
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'complete', providerStatus: '16' });
  });

  test('a phantom may carry a reference, or another onramp status code; a code Onramp.money lacks is refused', async () => {
    const from = Date.now() - 1_000;
    const reference = randomUUID();
    const id = await addPhantom(harness, { reference, status: '-2' });
    const [phantom] = (await listAll(harness.adapter, recent(from))).filter((t) => t.providerOrderId === id);
    expect(phantom).toMatchObject({ orderId: reference, status: 'expired', providerStatus: '-2' });
    expect(await harness.eventsFor(reference)).toEqual([]);
    const refused = await fetch(`${harness.urls.publicUrl}/_simulator/books`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phantom: { status: '7' } }),
    });
    expect(refused.status).toBe(400);
  });

  test('a row in a status Onramp.money does not document is counted as unreadable, not listed', async () => {
    const from = Date.now() - 1_000;
    const id = await addPhantom(harness);
    harness.simulator.transactions.get(id)!.status = 7;
    try {
      const page = await harness.adapter.transactions!.list(recent(from));
      expect(page.transactions.some((t) => t.providerOrderId === id)).toBe(false);
      expect(page.unreadable).toBeGreaterThanOrEqual(1);
    } finally {
      harness.simulator.transactions.get(id)!.status = 16;
    }
  });

  test('the simulator answers only what was made since `since`, and refuses a `since` that is not a time', async () => {
    const { apiKey, apiSecret } = ONRAMP_MONEY_SIMULATOR_CREDENTIALS;
    const history = async (body: Record<string, unknown>) => {
      const response = await fetch(`${harness.urls.publicUrl}/onramp/api/v1/transaction/merchantHistory`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedRequestHeaders(apiKey, apiSecret, body) },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { data?: { createdAt: string }[] } };
    };
    const since = new Date(Date.now() - 1_000).toISOString();
    await addPhantom(harness);
    const answer = await history({ page: 1, pageSize: 500, since, order: 'DESC', type: 1 });
    expect(answer.status).toBe(200);
    expect(answer.body.data!.length).toBeGreaterThan(0);
    expect(answer.body.data!.every((tx) => tx.createdAt >= since)).toBe(true);
    expect((await history({ page: 1, since: 'yesterday', type: 1 })).status).toBe(400);
  });
});
