/**
 * The Transak adapter against the Transak simulator over real HTTP on 127.0.0.1: catalogue, quotes,
 * widget sessions, the checkout actions and their signed webhooks, status lookup, access-token
 * refresh, refusals and fault switches. No Temporal: a small receiver plays the broker.
 */
import { SignJWT } from 'jose';
import { currencyDictionary } from '../../../src/domain/currencies';
import { createTransakAdapter, TRANSAK_SIMULATOR_CREDENTIALS, transakConfig } from '../../../src/providers/transak';
import { ProviderRejectedError, ProviderUnavailableError, WebhookVerificationError } from '../../../src/providers/types';
import { createTransakSimulator } from '../../../src/simulators/transak/server';
import { eventually } from '../../helpers/http';
import { rejectionOf } from '../../helpers/rejection';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { setBooks, transactionListSuite } from '../../helpers/transaction-list';
import { cryptoOf as crypto, currencyId as idOf, fiatOf as fiat } from '../../helpers/currencies';
import { transakOrderRequest as orderRequest } from '../../helpers/transak-orders';

/** The simulator and the adapter, with a receiver that verifies each webhook with the adapter, as the broker does. */
const useTransakHarness = (accessTokenTtlMs?: number) =>
  useProviderHarness({
    code: 'transak',
    config: (urls) => transakConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: 'http://127.0.0.1:3000' }),
    simulator: (urls) =>
      createTransakSimulator({
        publicUrl: urls.publicUrl,
        brokerWebhookUrl: urls.webhookUrl,
        credentials: TRANSAK_SIMULATOR_CREDENTIALS,
        stepDelayMs: 40,
        accessTokenTtlMs,
      }),
    adapter: (config) => createTransakAdapter(config, currencyDictionary),
  });

describe('Transak adapter against the simulator', () => {
  const harness = useTransakHarness();

  it('reads the catalogue in broker IDs, with US states, GB and DE', async () => {
    const catalogue = await harness.adapter.getCatalogue();
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([
        idOf('BTC', 'bitcoin'),
        idOf('ETH', 'ethereum'),
        idOf('USDT', 'tron'),
        idOf('USDC', 'solana'),
        idOf('AVAX', 'avalanche'),
      ]),
    );
    expect(catalogue.crypto).not.toContain(idOf('TRX', 'tron')); // listed but not allowed
    expect(catalogue.fiat).toEqual(expect.arrayContaining([idOf('USD'), idOf('EUR'), idOf('GBP')]));
    const us = catalogue.countries.find((c) => c.code === 'US');
    expect(us?.states).toContain('CA');
    expect(us?.states).not.toContain('NY');
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['GB', 'DE']));
    expect(catalogue.countries.map((c) => c.code)).not.toContain('KP');
    expect(catalogue.paymentMethods.map((m) => m.code).sort()).toEqual(['ach', 'apple_pay', 'bank_transfer', 'card', 'google_pay', 'sepa']);
    expect(catalogue.paymentMethods.find((m) => m.code === 'sepa')!.limits).toEqual({ [idOf('EUR')]: { min: '23', max: '13800' } });
  });

  it('quotes in decimal strings, and refuses an amount out of limits with the limits', async () => {
    const quote = await harness.adapter.getQuote({
      fiat: fiat('GBP'),
      crypto: crypto('BTC', 'bitcoin'),
      fiatAmount: '200',
      paymentMethod: 'bank_transfer',
      country: 'GB',
      externalUserId: 'user-1',
    });
    expect(quote).toMatchObject({ fiatAmount: '200', paymentMethod: 'bank_transfer', processingFee: '1.98', networkFee: '1.98' });
    expect(quote.cryptoAmount).toMatch(/^0\.00\d+$/);
    expect(quote.providerQuoteId).toEqual(expect.any(String));

    const refused = await rejectionOf(
      harness.adapter.getQuote({
        fiat: fiat('EUR'),
        crypto: crypto('ETH', 'ethereum'),
        fiatAmount: '5',
        paymentMethod: 'card',
        country: 'DE',
        externalUserId: 'u',
      }),
      ProviderRejectedError,
    );
    expect(refused).toMatchObject({ code: 'limits', details: { minAmount: '27.60', maxAmount: '2760.00' } });

    const country = await harness.adapter
      .getQuote({
        fiat: fiat('EUR'),
        crypto: crypto('ETH', 'ethereum'),
        fiatAmount: '50',
        paymentMethod: 'card',
        country: 'KP',
        externalUserId: 'u',
      })
      .catch((e: unknown) => e);
    expect(country).toMatchObject({ code: 'country' });
  });

  it("honours the caller's abort signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(harness.adapter.getCatalogue(controller.signal)).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('creates one Transak order however many widget sessions, and walks it to complete on pay', async () => {
    const request = orderRequest();
    const first = await harness.adapter.createOrder(request);
    const second = await harness.adapter.createOrder(request);
    expect(first).toMatchObject({ orderId: request.orderId, status: 'created', providerStatus: 'NO_ORDER_YET' });
    expect(await harness.adapter.getOrder(request.orderId)).toEqual({
      orderId: request.orderId,
      status: 'created',
      providerStatus: 'NO_ORDER_YET',
    });
    expect(first.redirectUrl).toMatch(new RegExp(`^${harness.urls.simulatorUrl}/transak/global\\?apiKey=.+&sessionId=`));
    expect(second.redirectUrl).not.toBe(first.redirectUrl);

    const page = await fetch(first.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('AWAITING_PAYMENT_FROM_USER');
    expect((await fetch(second.redirectUrl)).status).toBe(200);
    const orders = [...harness.simulator.orders.values()].filter((o) => o.partnerOrderId === request.orderId);
    expect(orders).toHaveLength(1);
    // Once the order exists, creating again reports it.
    expect(await harness.adapter.createOrder(request)).toMatchObject({ providerOrderId: orders[0]!.id, status: 'pending' });

    const paid = await checkout(first.redirectUrl, 'pay');
    expect(paid).toMatchObject({ status: 200, body: { status: 'PAYMENT_DONE_MARKED_BY_USER' } });

    const events = await harness.waitForEvents(request.orderId, 5);
    expect(events.map((e) => e.providerStatus)).toEqual([
      'AWAITING_PAYMENT_FROM_USER',
      'PAYMENT_DONE_MARKED_BY_USER',
      'PROCESSING',
      'PENDING_DELIVERY_FROM_TRANSAK',
      'COMPLETED',
    ]);
    expect(events.map((e) => e.status)).toEqual(['pending', 'pending', 'processing', 'processing', 'complete']);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(5);
    expect(events[4]).toMatchObject({ providerOrderId: orders[0]!.id, transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({
      status: 'complete',
      providerStatus: 'COMPLETED',
      orderId: request.orderId,
    });
    expect(await harness.adapter.getOrder(request.orderId, orders[0]!.id)).toMatchObject({
      status: 'complete',
      cryptoAmount: expect.any(String),
    });
    await expect(harness.adapter.getOrder(request.orderId, 'no-such-order')).rejects.toMatchObject({ code: 'not_found' });
    expect(harness.refusals).toEqual([]);
  });

  it('holds an order for verification, and pay continues from there', async () => {
    const request = orderRequest({
      fiat: fiat('USD'),
      crypto: crypto('USDT', 'tron'),
      walletAddress: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
      paymentMethod: 'card',
      country: 'US',
      state: 'CA',
    });
    const { redirectUrl } = await harness.adapter.createOrder(request);
    expect(await checkout(redirectUrl, 'hold')).toMatchObject({ status: 200, body: { status: 'ON_HOLD_PENDING_DELIVERY_FROM_TRANSAK' } });
    expect((await harness.waitForEvents(request.orderId, 2)).map((e) => e.status)).toEqual(['pending', 'hold']);
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'hold' });
    await checkout(redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 4);
    expect(events.map((e) => e.providerStatus).slice(2)).toEqual(['PENDING_DELIVERY_FROM_TRANSAK', 'COMPLETED']);
  });

  it('fails, refunds, expires and cancels', async () => {
    const failing = orderRequest();
    const failed = await harness.adapter.createOrder(failing);
    await checkout(failed.redirectUrl, 'fail');
    await checkout(failed.redirectUrl, 'refund');
    expect((await harness.waitForEvents(failing.orderId, 3)).map((e) => [e.status, e.failureReason])).toEqual([
      ['pending', undefined],
      ['failed', 'payment_failed'],
      ['refunded', undefined],
    ]);

    const expiring = orderRequest();
    const expired = await harness.adapter.createOrder(expiring);
    expect(await checkout(expired.redirectUrl, 'expire')).toMatchObject({ body: { status: 'EXPIRED' } });
    expect(await harness.adapter.getOrder(expiring.orderId)).toMatchObject({ status: 'expired', providerStatus: 'EXPIRED' });

    const cancelling = orderRequest();
    const cancelled = await harness.adapter.createOrder(cancelling);
    await checkout(cancelled.redirectUrl, 'cancel');
    expect(await harness.adapter.getOrder(cancelling.orderId)).toMatchObject({ status: 'failed', failureReason: 'cancelled' });
  });

  it("refuses an action the order's status does not allow", async () => {
    const request = orderRequest();
    const { redirectUrl } = await harness.adapter.createOrder(request);
    await checkout(redirectUrl, 'expire');
    expect(await checkout(redirectUrl, 'refund')).toEqual({
      status: 409,
      body: { error: { code: 'invalid_action', message: expect.any(String), allowed: ['pay'] } },
    });
    expect((await checkout(redirectUrl, 'teleport')).status).toBe(409);
  });

  it('refuses a wrong API key, API secret or access token', async () => {
    const api = `${harness.urls.simulatorUrl}/transak`;
    const secret = await fetch(`${api}/partners/api/v2/refresh-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-secret': 'wrong' },
      body: JSON.stringify({ apiKey: TRANSAK_SIMULATOR_CREDENTIALS.apiKey }),
    });
    expect(secret.status).toBe(400);
    expect(await secret.json()).toEqual({
      error: { statusCode: 400, name: 'Bad Request', message: expect.stringContaining('api-secret') },
    });
    const token = await fetch(`${api}/partners/api/v2/orders`, { headers: { 'access-token': 'forged' } });
    expect(token.status).toBe(401);
    expect(await token.json()).toEqual({ error: { statusCode: 401, name: 'Unauthorized', message: 'Authorization Required' } });
    expect((await fetch(`${api}/api/v1/pricing/public/quotes?partnerApiKey=wrong`)).status).toBe(401);

    const wrongSecret = createTransakAdapter({ ...harness.config, apiSecret: 'wrong' }, currencyDictionary);
    await expect(wrongSecret.createOrder(orderRequest())).rejects.toBeInstanceOf(ProviderUnavailableError);
    const wrongKey = createTransakAdapter({ ...harness.config, apiKey: 'wrong' }, currencyDictionary);
    await expect(
      wrongKey.getQuote({
        fiat: fiat('EUR'),
        crypto: crypto('ETH', 'ethereum'),
        fiatAmount: '50',
        paymentMethod: 'card',
        country: 'DE',
        externalUserId: 'u',
      }),
    ).rejects.toBeInstanceOf(ProviderUnavailableError);
  });

  it('refuses a forged webhook', async () => {
    const claims = { eventID: 'ORDER_COMPLETED', webhookData: { id: 'x', partnerOrderId: 'y', status: 'COMPLETED' } };
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('not-the-access-token'));
    await expect(
      harness.adapter.parseWebhook({ headers: {}, query: {}, rawBody: Buffer.from(JSON.stringify({ data: forged })) }),
    ).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it("reports the order's own terms in every webhook and status answer without the paid-terms switches", async () => {
    const request = orderRequest();
    const { redirectUrl } = await harness.adapter.createOrder(request);
    await checkout(redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 5);
    const ordered = {
      walletAddress: request.walletAddress,
      cryptoCurrency: request.crypto.id,
      fiatCurrency: request.fiat.id,
      fiatAmount: '150',
    };
    for (const event of events) expect(event).toMatchObject({ orderId: request.orderId, reported: ordered });
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ orderId: request.orderId, reported: ordered });
  });

  it('with the paid-terms switches on, reports what was paid from payment on, by webhook and in both lookups', async () => {
    const paidWallet = '0x12d8885e0F0BFc487d93A9e3DcB5c23cB86EE9ae';
    const faults = await fetch(`${harness.urls.simulatorUrl}/transak/_simulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paidFiatAmount: '175.25', paidFiatCurrency: 'GBP', paidWalletAddress: paidWallet }),
    });
    expect(faults.status).toBe(200);
    const request = orderRequest();
    const { redirectUrl } = await harness.adapter.createOrder(request);
    await checkout(redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 5);
    const paid = { walletAddress: paidWallet, cryptoCurrency: request.crypto.id, fiatCurrency: fiat('GBP').id, fiatAmount: '175.25' };
    // The order was placed with its own terms, then paid otherwise.
    expect(events[0]).toMatchObject({
      providerStatus: 'AWAITING_PAYMENT_FROM_USER',
      reported: { walletAddress: request.walletAddress, fiatAmount: '150' },
    });
    for (const event of events.slice(1)) expect(event).toMatchObject({ orderId: request.orderId, reported: paid });
    expect((await harness.adapter.getOrder(request.orderId)).reported).toEqual(paid);
    expect((await harness.adapter.getOrder(request.orderId, events[0]!.providerOrderId)).reported).toEqual(paid);
  });

  it('answers 503 under errorRate, and sends no webhooks under dropWebhooks while lookups still work', async () => {
    const faults = `${harness.urls.simulatorUrl}/transak/_simulator/faults`;
    const set = (body: object) =>
      fetch(faults, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await set({ errorRate: 1 });
    await expect(harness.adapter.getCatalogue()).rejects.toBeInstanceOf(ProviderUnavailableError);
    await set({ errorRate: 0, dropWebhooks: true });
    try {
      const request = orderRequest();
      const { redirectUrl } = await harness.adapter.createOrder(request);
      await checkout(redirectUrl, 'pay');
      await eventually(
        async () => ((await harness.adapter.getOrder(request.orderId)).status === 'complete' ? true : undefined),
        'the order to complete',
      );
      await harness.simulator.webhooks.drain();
      expect(await harness.eventsFor(request.orderId)).toEqual([]);
    } finally {
      await set({ dropWebhooks: false });
    }
  });
});

describe('Transak access token lifecycle', () => {
  const harness = useTransakHarness(1_500);

  it('fetches one token for concurrent calls, refreshes it before expiry, and once after a 401', async () => {
    const request = orderRequest();
    await harness.adapter.createOrder(request);
    const lookups = await Promise.all(Array.from({ length: 5 }, () => harness.adapter.getOrder(request.orderId)));
    // Nothing placed in the widget yet, but every lookup was authorised.
    for (const result of lookups) expect(result).toMatchObject({ status: 'created' });
    expect(harness.simulator.accessTokensIssued).toBe(1);

    // Past the token's lifetime: the adapter refreshes before calling, so Transak never sees it expired.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    await expect(harness.adapter.getOrder(request.orderId)).resolves.toMatchObject({ status: 'created' });
    expect(harness.simulator.accessTokensIssued).toBe(2);
    expect(harness.simulator.accessTokenRejections).toBe(0);

    // Someone else with the same credentials takes a new token: ours is invalidated.
    const other = await fetch(`${harness.urls.simulatorUrl}/transak/partners/api/v2/refresh-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-secret': TRANSAK_SIMULATOR_CREDENTIALS.apiSecret },
      body: JSON.stringify({ apiKey: TRANSAK_SIMULATOR_CREDENTIALS.apiKey }),
    });
    expect(other.status).toBe(200);
    expect(harness.simulator.accessTokensIssued).toBe(3);
    await expect(harness.adapter.getOrder(request.orderId)).resolves.toMatchObject({ status: 'created' });
    expect(harness.simulator.accessTokenRejections).toBe(1);
    expect(harness.simulator.accessTokensIssued).toBe(4);
  });

  it('verifies webhooks signed with the token it refreshed', async () => {
    const request = orderRequest();
    const { redirectUrl } = await harness.adapter.createOrder(request);
    await checkout(redirectUrl, 'pay');
    const events = await harness.waitForEvents(request.orderId, 5);
    expect(events.at(-1)).toMatchObject({ status: 'complete' });
    expect(harness.refusals).toEqual([]);
  });
});

describe('transaction list (GET /partners/api/v2/orders)', () => {
  const harness = useTransakHarness();

  transactionListSuite({
    harness: () => harness,
    paidOrder: async () => {
      const request = orderRequest();
      const { redirectUrl } = await harness.adapter.createOrder(request);
      await checkout(redirectUrl, 'pay');
      expect((await harness.waitForEvents(request.orderId, 5)).at(-1)).toMatchObject({ status: 'complete' });
      return { orderId: request.orderId, fiatAmount: request.fiatAmount };
    },
    driftedStatus: { provider: 'REFUNDED', broker: 'refunded' },
    phantomStatus: 'complete',
    pageLimit: 100,
  });

  /** GET /partners/api/v2/orders with a token of its own (which replaces the adapter's: it refreshes on its next call). */
  async function listOrders(query: Record<string, string>) {
    const api = `${harness.urls.simulatorUrl}/transak/partners/api/v2`;
    const issued = await fetch(`${api}/refresh-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'api-secret': TRANSAK_SIMULATOR_CREDENTIALS.apiSecret },
      body: JSON.stringify({ apiKey: TRANSAK_SIMULATOR_CREDENTIALS.apiKey }),
    });
    const { data } = (await issued.json()) as { data: { accessToken: string } };
    const response = await fetch(`${api}/orders?${new URLSearchParams(query).toString()}`, {
      headers: { 'access-token': data.accessToken },
    });
    return { status: response.status, body: (await response.json()) as { data?: { id: string; status: string }[] } };
  }

  it("refuses bad list parameters with Transak's error body", async () => {
    const refused: Record<string, string>[] = [
      { startDate: '2024-02-31' },
      { startDate: '2024-05-02', endDate: '2024-05-01' },
      { endDate: '1714521600000' },
      { limit: '101' },
      { limit: '0' },
      { skip: '-1' },
      { 'filter[status]': 'DONE' },
      { 'filter[sortOrder]': 'newest' },
      { 'filter[productsAvailed]': 'BUY' },
    ];
    for (const query of refused) {
      expect(await listOrders(query)).toEqual({
        status: 400,
        body: { error: { statusCode: 400, name: 'Bad Request', message: expect.any(String) } },
      });
    }
  });

  it('lists COMPLETED orders when no status is named (the documented default), and the books show in the list only', async () => {
    const request = orderRequest();
    const { redirectUrl } = await harness.adapter.createOrder(request);
    await checkout(redirectUrl, 'expire');
    await harness.waitForEvents(request.orderId, 2);
    const id = [...harness.simulator.orders.values()].find((o) => o.partnerOrderId === request.orderId)!.id;
    expect((await listOrders({})).body.data!.map((o) => o.id)).not.toContain(id);
    expect((await listOrders({ 'filter[status]': 'EXPIRED' })).body.data!.map((o) => o.id)).toContain(id);

    await setBooks(harness, request.orderId, { status: 'COMPLETED' });
    expect((await listOrders({})).body.data!.map((o) => o.id)).toContain(id);
    // A lookup by partnerOrderId is a status answer: the order as it is.
    expect((await listOrders({ 'filter[partnerOrderId]': request.orderId })).body.data).toEqual([
      expect.objectContaining({ id, status: 'EXPIRED' }),
    ]);
    expect(await harness.adapter.getOrder(request.orderId)).toMatchObject({ status: 'expired' });
  });
});
