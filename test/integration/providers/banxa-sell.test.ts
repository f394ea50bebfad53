/**
 * Banxa's sell (off-ramp) adapter against the Banxa simulator over real HTTP on 127.0.0.1: the sell
 * catalogue and quote, server-side sell orders, each checkout action's walk with its signed webhooks
 * (statuses, the deposit appearing at waitingPayment, reported figures), the deposit confirmation,
 * forged and tampered webhooks, and buy and sell never crossing. No Temporal: a small receiver plays
 * the broker's webhook route.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import type { SellOrderStatus } from '../../../src/domain/sell-order-status';
import { validateWalletAddress } from '../../../src/addresses/validate';
import { banxaConfig, BanxaEnvSchema, createBanxaAdapter } from '../../../src/providers/banxa';
import type { CreateSellOrderRequest, SellAdapter } from '../../../src/providers/sell-types';
import {
  IgnoredWebhookError,
  ProviderRejectedError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
  type IncomingWebhook,
} from '../../../src/providers/types';
import { createBanxaSimulator } from '../../../src/simulators/banxa/server';
import { banxaAuthorization } from '../../../src/simulators/banxa/signing';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { rejectionOf } from '../../helpers/rejection';
import { listAll } from '../../helpers/transaction-list';
import { cryptoOf as crypto, currencyId as idOf, fiatOf as fiat } from '../../helpers/currencies';
import { sellAdapterRequests } from '../../helpers/sell-adapter-requests';
import { expectLegalSellWalk } from '../../helpers/sell-walk';

jest.setTimeout(20_000);

const REFUND = '0xD902d7eBF7bc5eCa9EEA22a6Ee9F1A30EBeBEFeE';

const sellRequest = sellAdapterRequests({ refundWalletAddress: REFUND, externalUserId: 'seller-1' });

const buyRequest = (): CreateProviderOrderRequest => ({
  orderId: randomUUID(),
  fiat: fiat('EUR'),
  crypto: crypto('USDT', 'tron'),
  fiatAmount: '150.00',
  walletAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  paymentMethod: 'card',
  country: 'DE',
  externalUserId: 'buyer-1',
  extras: {},
});

describe('Banxa sell adapter against the simulator', () => {
  const harness = useProviderHarness({
    code: 'banxa',
    config: (urls) => banxaConfig(BanxaEnvSchema.parse({}), { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
    simulator: (urls, config) =>
      createBanxaSimulator({
        publicUrl: urls.publicUrl,
        brokerWebhookUrl: urls.webhookUrl,
        credentials: { apiKey: config.apiKey, apiSecret: config.apiSecret },
        stepDelayMs: 40,
      }),
    adapter: (config) => createBanxaAdapter(config, currencyDictionary),
  });
  const sell = (): SellAdapter => harness.adapter.sell!;

  /** A webhook as the simulator would sign it, for a body of our choosing. */
  function signed(body: Record<string, unknown>, secret = harness.config.apiSecret): IncomingWebhook {
    const raw = JSON.stringify(body);
    const path = new URL(harness.urls.webhookUrl).pathname;
    const authorization = banxaAuthorization(
      { apiKey: harness.config.apiKey, apiSecret: secret },
      { method: 'POST', path, body: raw },
      Date.now(),
    );
    return { headers: { authorization }, rawBody: Buffer.from(raw), query: {} };
  }

  /** Creates the order: no deposit in the answer, and none in its lookup before waitingPayment. */
  async function placed(request: CreateSellOrderRequest) {
    const created = await sell().createOrder(request);
    expect(created).toMatchObject({ orderId: request.orderId, providerStatus: 'pendingPayment', status: 'created' });
    expect(created).not.toHaveProperty('deposit');
    const looked = await sell().getOrder(request.orderId, created.providerOrderId);
    expect(looked).toMatchObject({ status: 'created' });
    expect(looked).not.toHaveProperty('deposit');
    return created;
  }

  it('reads the sell catalogue: assets bought, PayID, SEPA and PIX payouts with their limits', async () => {
    const catalogue = await sell().getCatalogue();
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([idOf('BTC', 'bitcoin'), idOf('ETH', 'ethereum'), idOf('USDT', 'tron'), idOf('XRP', 'ripple')]),
    );
    expect(catalogue.fiat.sort()).toEqual([idOf('AUD'), idOf('EUR'), idOf('BRL')].sort());
    expect(catalogue.payoutMethods.map((m) => [m.code, Object.keys(m.limits).map(Number)])).toEqual([
      ['payid', [idOf('AUD')]],
      ['sepa', [idOf('EUR')]],
      ['pix', [idOf('BRL')]],
    ]);
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['AU', 'DE', 'BR']));
  });

  it('quotes a sell: crypto in, the payout net of fees in the fiat', async () => {
    const quote = await sell().getQuote({ ...sellRequest(), ip: undefined });
    expect(quote).toEqual({
      cryptoAmount: '0.1',
      fiatAmount: expect.stringMatching(/^\d+\.\d{2}$/),
      processingFee: expect.stringMatching(/^\d+\.\d{2}$/),
      networkFee: '0.00',
      payoutMethod: 'sepa',
    });
    expect(Number(quote.processingFee)).toBeGreaterThan(0);
    const refused = await rejectionOf(sell().getQuote({ ...sellRequest(), payoutMethod: 'card' }), ProviderRejectedError);
    expect(refused.code).toBe('payment_method');
  });

  it('pay: the deposit appears at waitingPayment, then received and paid out to complete', async () => {
    const request = sellRequest();
    const quote = await sell().getQuote(request);
    const created = await placed(request);
    expect(await checkout(created.redirectUrl, 'pay')).toMatchObject({
      status: 200,
      body: { status: 'waitingPayment', orderType: 'SELL' },
    });
    const events = await harness.waitForSellEvents(request.orderId, 3);
    expect(events.map((e) => [e.providerStatus, e.status])).toEqual([
      ['waitingPayment', 'waiting_for_deposit'],
      ['paymentReceived', 'deposit_received'],
      ['complete', 'complete'],
    ]);
    expectLegalSellWalk(events);
    const deposit = events[0]!.deposit!;
    expect(deposit).toEqual({ address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), network: 'ethereum', amount: '0.1' });
    expect(deposit.address).not.toBe(REFUND);
    expect(validateWalletAddress('ethereum', deposit.address)).toMatchObject({ valid: true });
    for (const event of events) {
      expect(event).toMatchObject({
        orderId: request.orderId,
        providerOrderId: created.providerOrderId,
        deposit,
        reported: { cryptoCurrency: request.crypto.id, cryptoAmount: '0.1', fiatCurrency: request.fiat.id, fiatAmount: quote.fiatAmount },
      });
      expect(event.reported).not.toHaveProperty('refundWalletAddress');
    }
    expect(events[1]!.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(3);
    expect(await sell().getOrder(request.orderId, created.providerOrderId)).toMatchObject({ status: 'complete', deposit });
    // By our order id alone (Banxa's lookup by externalOrderId is unconfirmed; the simulator answers it).
    expect(await sell().getOrder(request.orderId)).toMatchObject({ providerOrderId: created.providerOrderId, deposit });
    // Creating again finds the order made before: no second Banxa order, and still no deposit from the list.
    const again = await sell().createOrder(request);
    expect(again).toMatchObject({ providerOrderId: created.providerOrderId, status: 'complete' });
    expect(again).not.toHaveProperty('deposit');
    expect(harness.refusals).toEqual([]);
  });

  it('names the deposit tag of a memo network (XRP destination tag) from the lookup', async () => {
    const request = sellRequest({
      crypto: crypto('XRP', 'ripple'),
      cryptoAmount: '50',
      refundWalletAddress: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY',
      fiat: fiat('AUD'),
      payoutMethod: 'payid',
      country: 'AU',
    });
    const created = await placed(request);
    // Shown the deposit first: a walk straight to expired may outrun the waitingPayment webhook's lookup.
    await checkout(created.redirectUrl, 'ready');
    await harness.waitForSellEvents(request.orderId, 1);
    await checkout(created.redirectUrl, 'expire');
    const events = await harness.waitForSellEvents(request.orderId, 2);
    expect(events.map((e) => e.status)).toEqual(['waiting_for_deposit', 'expired']);
    const deposit = events[0]!.deposit!;
    expect(deposit).toMatchObject({ network: 'ripple', memo: expect.stringMatching(/^\d+$/), amount: '50' });
    expect(validateWalletAddress('ripple', deposit.address)).toMatchObject({ valid: true });
    // The expired order's lookup no longer names it (the deposit window is over); the workflow keeps the first.
    expect(events[1]).not.toHaveProperty('deposit');
  });

  it('wrong_amount: the reported figures follow the crypto that arrived', async () => {
    const request = sellRequest({
      crypto: crypto('USDT', 'tron'),
      cryptoAmount: '200',
      refundWalletAddress: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
    });
    const quote = await sell().getQuote(request);
    const created = await placed(request);
    await checkout(created.redirectUrl, 'wrong_amount');
    const events = await harness.waitForSellEvents(request.orderId, 3);
    expect(events.map((e) => e.status)).toEqual(['waiting_for_deposit', 'deposit_received', 'complete']);
    expect(events[0]!.reported).toMatchObject({ cryptoAmount: '200', fiatAmount: quote.fiatAmount });
    expect(validateWalletAddress('tron', events[0]!.deposit!.address)).toMatchObject({ valid: true });
    const short = await sell().getQuote({ ...request, cryptoAmount: '180' });
    expect(events[2]).toMatchObject({ reported: { cryptoAmount: '180', fiatAmount: short.fiatAmount }, deposit: { amount: '180' } });
  });

  it('fail, expire and refund walk to failed, expired and refunded', async () => {
    const walks: [string, SellOrderStatus[], string[]][] = [
      ['fail', ['waiting_for_deposit', 'failed'], ['waitingPayment', 'declined']],
      ['expire', ['waiting_for_deposit', 'expired'], ['waitingPayment', 'expired']],
      ['refund', ['waiting_for_deposit', 'deposit_received', 'refunded'], ['waitingPayment', 'paymentReceived', 'refunded']],
    ];
    for (const [action, statuses, banxa] of walks) {
      const request = sellRequest({
        crypto: crypto('BTC', 'bitcoin'),
        cryptoAmount: '0.002',
        refundWalletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      });
      const created = await placed(request);
      // Each webhook is followed by a lookup: waiting for the first keeps the walk from outrunning it.
      expect((await checkout(created.redirectUrl, 'ready')).status).toBe(200);
      await harness.waitForSellEvents(request.orderId, 1);
      expect((await checkout(created.redirectUrl, action)).status).toBe(200);
      const events = await harness.waitForSellEvents(request.orderId, statuses.length);
      expect(events.map((e) => e.status)).toEqual(statuses);
      expect(events.map((e) => e.providerStatus)).toEqual(banxa);
      expectLegalSellWalk(events);
      expect(validateWalletAddress('bitcoin', events[0]!.deposit!.address)).toMatchObject({ valid: true });
      expect(await sell().getOrder(request.orderId, created.providerOrderId)).toMatchObject({ status: statuses.at(-1) });
      if (action === 'fail') expect(events[1]).toMatchObject({ failureReason: 'payout_declined' });
    }
  });

  it('confirms the deposit transaction: accepted once the deposit is named, refused before', async () => {
    const request = sellRequest();
    const created = await placed(request);
    const early = await rejectionOf(
      sell().confirmDeposit!(request.orderId, created.providerOrderId, `0x${'ab'.repeat(32)}`),
      ProviderRejectedError,
    );
    expect(early.message).toMatch(/no deposit address/);
    await checkout(created.redirectUrl, 'expire');
    await harness.waitForSellEvents(request.orderId, 2);
    // An expired order's lookup names no deposit: a late one is confirmed after `pay` revives it.
    await checkout(created.redirectUrl, 'pay');
    await harness.waitForSellEvents(request.orderId, 4);
    const hash = (await sell().getOrder(request.orderId, created.providerOrderId)).transactionHash!;
    await expect(sell().confirmDeposit!(request.orderId, created.providerOrderId, hash)).resolves.toBeUndefined();
    await expect(sell().confirmDeposit!(request.orderId, undefined, hash)).resolves.toBeUndefined();
    const order = harness.simulator.sellOrders.get(created.providerOrderId!)!;
    expect(order.transactionHash).toBe(hash);
  });

  it("an order shown its deposit (`ready`) receives it once the partner confirms the customer's transaction", async () => {
    const request = sellRequest();
    const created = await placed(request);
    await checkout(created.redirectUrl, 'ready');
    const [ready] = await harness.waitForSellEvents(request.orderId, 1);
    expect(ready).toMatchObject({ status: 'waiting_for_deposit' });
    expect(ready!.deposit).toBeDefined();
    const hash = `0x${'cd'.repeat(32)}`;
    await expect(sell().confirmDeposit!(request.orderId, created.providerOrderId, hash)).resolves.toBeUndefined();
    const events = await harness.waitForSellEvents(request.orderId, 3);
    expect(events.map((e) => e.status)).toEqual(['waiting_for_deposit', 'deposit_received', 'complete']);
    expect(await sell().getOrder(request.orderId, created.providerOrderId)).toMatchObject({ status: 'complete', transactionHash: hash });
  });

  it('refuses forged and tampered sell webhooks, and a sell body of a buy order', async () => {
    const request = sellRequest();
    const created = await placed(request);
    const body = { order_id: created.providerOrderId, status: 'waitingPayment', external_id: request.orderId, order_type: 'SELL' };
    expect(sell().isSellWebhook(signed(body))).toBe(true);
    await expect(sell().parseWebhook(signed(body))).resolves.toMatchObject({ orderId: request.orderId, status: 'waiting_for_deposit' });
    const forged = signed(body, 'not-the-secret');
    await expect(sell().parseWebhook(forged)).rejects.toBeInstanceOf(WebhookVerificationError);
    const tampered = signed(body);
    tampered.rawBody = Buffer.from(JSON.stringify({ ...body, status: 'complete' }));
    await expect(sell().parseWebhook(tampered)).rejects.toBeInstanceOf(WebhookVerificationError);
    // Signed, but no SELL body; signed, but naming another order.
    await expect(sell().parseWebhook(signed({ ...body, order_type: 'BUY' }))).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(sell().parseWebhook(signed({ ...body, external_id: randomUUID() }))).rejects.toBeInstanceOf(WebhookVerificationError);
    // A status Banxa does not document is refused.
    await expect(sell().parseWebhook(signed({ ...body, status: 'teleported' }))).rejects.toThrow(/teleported/);
    // A SELL body about a buy order.
    const bought = await harness.adapter.createOrder(buyRequest());
    const crossed = { order_id: bought.providerOrderId, status: 'pendingPayment', order_type: 'SELL' };
    await expect(sell().parseWebhook(signed(crossed))).rejects.toBeInstanceOf(WebhookVerificationError);
  });

  it('never lets buy and sell cross: webhooks and lookups', async () => {
    const selling = sellRequest();
    const sold = await placed(selling);
    const buying = buyRequest();
    const bought = await harness.adapter.createOrder(buying);
    await checkout(sold.redirectUrl, 'pay');
    await checkout(bought.redirectUrl, 'pay');
    await harness.waitForSellEvents(selling.orderId, 3);
    await harness.waitForEvents(buying.orderId, 5);
    expect(await harness.eventsFor(selling.orderId)).toEqual([]);
    expect(await harness.sellEventsFor(buying.orderId)).toEqual([]);
    expect(harness.refusals).toEqual([]);
    // The buy parser ignores a SELL order's webhook, however well signed.
    const sellBody = { order_id: sold.providerOrderId, status: 'complete', external_id: selling.orderId, order_type: 'SELL' };
    await expect(harness.adapter.parseWebhook(signed(sellBody))).rejects.toBeInstanceOf(IgnoredWebhookError);
    await expect(harness.adapter.parseWebhook(signed({ ...sellBody, order_type: undefined }))).rejects.toBeInstanceOf(IgnoredWebhookError);
    // The reconciliation's list of buy transactions leaves the sell order out.
    const listed = await listAll(harness.adapter, { fromMs: Date.now() - 60_000, toMs: Date.now() + 60_000 });
    expect(listed.map((t) => t.orderId)).toContain(buying.orderId);
    expect(listed.map((t) => t.orderId)).not.toContain(selling.orderId);
    expect((await rejectionOf(sell().getOrder(buying.orderId, bought.providerOrderId), ProviderRejectedError)).code).toBe('not_found');
    expect((await rejectionOf(harness.adapter.getOrder(selling.orderId, sold.providerOrderId), ProviderRejectedError)).code).toBe(
      'not_found',
    );
  });

  it('takes no deposit from extras or the return URL: only the sell order lookup names it', async () => {
    const evil = '0x0000000000000000000000000000000000000bad';
    const request = sellRequest({
      extras: { walletAddress: evil, deposit: { address: evil }, return_url: `https://example.com/?walletAddress=${evil}` },
    });
    const created = await sell().createOrder(request);
    expect(created).not.toHaveProperty('deposit');
    await checkout(created.redirectUrl, 'pay');
    const [first] = await harness.waitForSellEvents(request.orderId, 1);
    expect(first!.deposit!.address).not.toBe(evil);
    expect(first!.deposit!.address).not.toBe(REFUND);
    expect((await sell().getOrder(request.orderId, created.providerOrderId)).deposit?.address).toBe(first!.deposit!.address);
  });
});
