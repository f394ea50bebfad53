/**
 * The sandbox's sell (off-ramp) adapter against the sandbox simulator over real HTTP on 127.0.0.1:
 * its catalogue and quotes, orders with their deposit instruction, every checkout action's walk as
 * its signed webhooks (verified by the adapter's sell parser) and lookups report it, and the
 * separation of buy and sell webhooks.
 */
import { randomUUID } from 'node:crypto';
import { validateWalletAddress } from '../../../../src/addresses/validate';
import { currencyDictionary } from '../../../../src/domain/currencies';
import { canSellTransition, type SellOrderStatus } from '../../../../src/domain/sell-order-status';
import { createSandboxAdapter, SANDBOX_INFO } from '../../../../src/providers/sandbox';
import type { CreateSellOrderRequest, SellAdapter, SellWebhookEvent } from '../../../../src/providers/sell-types';
import {
  IgnoredWebhookError,
  ProviderRejectedError,
  WebhookVerificationError,
  type CreateProviderOrderRequest,
} from '../../../../src/providers/types';
import { SandboxSimulator } from '../../../../src/simulators/sandbox/server';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';
import { checkout } from '../../../helpers/orders';
import { startProviderHarness, useProviderHarness, type ProviderHarness } from '../../../helpers/provider-harness';
import { rejectionOf } from '../../../helpers/rejection';

const CREDENTIALS = { apiKey: 'sk_sandbox_test', webhookSecret: 'sandbox_test_secret' };
const BTC_REFUND = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

const harnessOptions = (depositWindowMs?: number) => ({
  code: 'sandbox',
  config: (urls: { simulatorUrl: string }) => ({ mode: 'simulator' as const, config: { baseUrl: urls.simulatorUrl, ...CREDENTIALS } }),
  simulator: (urls: { webhookUrl: string; publicUrl: string }) =>
    new SandboxSimulator({ ...CREDENTIALS, webhookUrl: urls.webhookUrl, publicUrl: urls.publicUrl, settleDelayMs: 40, depositWindowMs }),
  adapter: (config: { baseUrl: string; apiKey: string; webhookSecret: string }) =>
    createSandboxAdapter(config, SANDBOX_INFO, currencyDictionary),
});

const harness = useProviderHarness(harnessOptions());
const sell = (): SellAdapter => harness.adapter.sell!;

function sellRequest(overrides: Partial<CreateSellOrderRequest> = {}): CreateSellOrderRequest {
  return {
    orderId: randomUUID(),
    crypto: crypto('BTC', 'bitcoin'),
    fiat: fiat('EUR'),
    cryptoAmount: '0.01',
    refundWalletAddress: BTC_REFUND,
    payoutMethod: 'sepa',
    country: 'DE',
    externalUserId: 'user-1',
    returnUrl: 'https://wallet.example/done',
    extras: {},
    ...overrides,
  };
}

const statuses = (events: SellWebhookEvent[]) => events.map((e) => e.status);
const providerStatuses = (events: SellWebhookEvent[]) => events.map((e) => e.providerStatus);

/** Every step of a walk is a move the sell order's transition table allows, from waiting_for_deposit on. */
function expectAllowedWalk(walk: SellOrderStatus[]): void {
  let from: SellOrderStatus = 'waiting_for_deposit';
  for (const to of walk) {
    expect(`${from} -> ${to}: ${canSellTransition(from, to)}`).toBe(`${from} -> ${to}: true`);
    from = to;
  }
}

/** A new sell order, and its checkout driven with `action` until `last` has come by webhook. */
async function walked(action: string, last: SellOrderStatus, body: Record<string, unknown> = {}, request = sellRequest()) {
  const order = await sell().createOrder(request);
  const response = await fetch(order.redirectUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action, ...body }),
  });
  expect(response.status).toBe(200);
  const events = await harness.waitForSellEvents(request.orderId, (all) => all.some((e) => e.status === last));
  return { request, order, events, lookup: await sell().getOrder(request.orderId) };
}

describe('catalogue and quotes', () => {
  test('the catalogue maps currencies, countries, payout methods and limits to the broker’s ids', async () => {
    const catalogue = await sell().getCatalogue();
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([crypto('BTC', 'bitcoin').id, crypto('XRP', 'ripple').id, crypto('USDT', 'tron').id]),
    );
    expect(catalogue.fiat).toEqual(expect.arrayContaining([fiat('USD').id, fiat('EUR').id, fiat('GBP').id]));
    expect(catalogue.countries).toContainEqual({ code: 'DE' });
    expect(catalogue.countries.find((c) => c.code === 'US')?.states).not.toContain('NY');
    const methods = Object.fromEntries(catalogue.payoutMethods.map((m) => [m.code, m]));
    expect(Object.keys(methods).sort()).toEqual(['ach', 'card_payout', 'sepa']);
    expect(methods.sepa!.fee).toBe('0.5%');
    expect(Object.keys(methods.sepa!.limits)).toEqual([String(fiat('EUR').id)]);
    expect(Object.keys(methods.ach!.limits)).toEqual([String(fiat('USD').id)]);
    expect(methods.card_payout!.limits[fiat('USD').id]).toEqual({ min: '10', max: '5000' });
    expect(catalogue.cryptoLimits?.[crypto('BTC', 'bitcoin').id]).toEqual({ min: expect.any(String), max: expect.any(String) });
  });

  test('a quote: crypto in, the payout out after the processing and network fees, in the fiat currency', async () => {
    const quote = await sell().getQuote({
      crypto: crypto('ETH', 'ethereum'),
      fiat: fiat('USD'),
      cryptoAmount: '1',
      payoutMethod: 'ach',
      country: 'US',
      state: 'CA',
      externalUserId: 'u',
    });
    // 3200 USD less 1 % spread = 3168; ACH 0.75 % = 23.76; network fee 1.00.
    expect(quote).toMatchObject({
      cryptoAmount: '1',
      fiatAmount: '3143.24',
      processingFee: '23.76',
      networkFee: '1.00',
      payoutMethod: 'ach',
    });
    expect(quote.expiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect(quote.providerQuoteId).toEqual(expect.any(String));
  });

  test('refusals: amount limits, payout method for the fiat, country, state', async () => {
    const base = { crypto: crypto('BTC', 'bitcoin'), fiat: fiat('EUR'), payoutMethod: 'sepa', country: 'DE', externalUserId: 'u' };
    const tooSmall = await rejectionOf(sell().getQuote({ ...base, cryptoAmount: '0.00001' }), ProviderRejectedError);
    expect(tooSmall).toMatchObject({ code: 'limits', details: { minAmount: expect.any(String), maxAmount: expect.any(String) } });
    expect((await rejectionOf(sell().getQuote({ ...base, cryptoAmount: '0.01', payoutMethod: 'ach' }), ProviderRejectedError)).code).toBe(
      'payment_method',
    );
    expect((await rejectionOf(sell().getQuote({ ...base, cryptoAmount: '0.01', country: 'BR' }), ProviderRejectedError)).code).toBe(
      'country',
    );
    const ny = { ...base, fiat: fiat('USD'), payoutMethod: 'ach', country: 'US', state: 'NY', cryptoAmount: '0.01' };
    expect((await rejectionOf(sell().getQuote(ny), ProviderRejectedError)).code).toBe('state');
  });

  test('quoteKey: the same for the same terms, whoever asks; another amount is another key', () => {
    const request = { crypto: crypto('BTC', 'bitcoin'), fiat: fiat('EUR'), cryptoAmount: '0.01', payoutMethod: 'sepa', country: 'DE' };
    const key = sell().quoteKey!({ ...request, externalUserId: 'a', ip: '1.2.3.4' });
    expect(sell().quoteKey!({ ...request, externalUserId: 'b' })).toBe(key);
    expect(sell().quoteKey!({ ...request, cryptoAmount: '0.02', externalUserId: 'a' })).not.toBe(key);
  });
});

describe('createOrder', () => {
  test('answers the checkout URL and a deposit address of its own, valid for the network, with the order’s terms', async () => {
    const request = sellRequest();
    const order = await sell().createOrder(request);
    expect(order).toMatchObject({
      orderId: request.orderId,
      providerStatus: 'AWAITING_DEPOSIT',
      status: 'waiting_for_deposit',
      redirectUrl: expect.stringContaining('/sandbox/sell/checkout/'),
      deposit: { network: 'bitcoin', amount: '0.01', expiresAt: expect.any(String) },
      reported: {
        cryptoCurrency: crypto('BTC', 'bitcoin').id,
        cryptoAmount: '0.01',
        fiatCurrency: fiat('EUR').id,
        fiatAmount: expect.stringMatching(/^\d+\.\d{2}$/),
        refundWalletAddress: BTC_REFUND,
      },
    });
    expect(validateWalletAddress('bitcoin', order.deposit!.address)).toMatchObject({ valid: true });
    expect(Date.parse(order.deposit!.expiresAt!) - Date.now()).toBeGreaterThan(29 * 60_000);
    const other = await sell().createOrder(sellRequest());
    expect(other.deposit!.address).not.toBe(order.deposit!.address);
    // Lookups by the broker's id and by the provider's report the same deposit.
    expect((await sell().getOrder(request.orderId)).deposit).toEqual(order.deposit);
    expect((await sell().getOrder(request.orderId, order.providerOrderId)).deposit).toEqual(order.deposit);
  });

  test.each([
    ['ETH', 'ethereum', 'USD', 'ach', 'US', '0x52908400098527886E0F7030069857D2E4169EE7'],
    ['USDC', 'polygon', 'USD', 'card_payout', 'US', '0x52908400098527886E0F7030069857D2E4169EE7'],
    ['USDT', 'tron', 'GBP', 'card_payout', 'GB', 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL'],
    ['SOL', 'solana', 'EUR', 'sepa', 'FR', '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'],
    ['LTC', 'litecoin', 'EUR', 'sepa', 'FR', 'ltc1qg42tkwuuxefutzxezdkdel39gfstuap288mfea'],
  ])('a %s/%s deposit address passes the network’s rules', async (ticker, network, fiatCode, method, country, refund) => {
    const amount = { ETH: '0.1', USDC: '100', USDT: '100', SOL: '1', LTC: '1' }[ticker]!;
    const order = await sell().createOrder(
      sellRequest({
        crypto: crypto(ticker, network),
        fiat: fiat(fiatCode),
        payoutMethod: method,
        country,
        state: country === 'US' ? 'CA' : undefined,
        cryptoAmount: amount,
        refundWalletAddress: refund,
      }),
    );
    expect(order.deposit).toMatchObject({ network });
    expect(order.deposit!.memo).toBeUndefined();
    const validation = validateWalletAddress(network, order.deposit!.address);
    expect(validation).toMatchObject({ valid: true, normalized: order.deposit!.address });
  });

  test('an XRP deposit is a classic address with a destination tag, both valid', async () => {
    const order = await sell().createOrder(
      sellRequest({ crypto: crypto('XRP', 'ripple'), cryptoAmount: '50', refundWalletAddress: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' }),
    );
    const { address, memo, network } = order.deposit!;
    expect(network).toBe('ripple');
    expect(memo).toMatch(/^[1-9]\d*$/);
    expect(validateWalletAddress('ripple', address, { tag: memo })).toMatchObject({ valid: true, tag: memo });
  });

  test('the same broker order id again answers the same order and deposit', async () => {
    const request = sellRequest();
    const first = await sell().createOrder(request);
    const again = await sell().createOrder(request);
    expect(again.providerOrderId).toBe(first.providerOrderId);
    expect(again.deposit).toEqual(first.deposit);
  });

  test('extras cannot inject a deposit: the snapshot’s deposit is the provider’s own', async () => {
    const injected = { address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'bitcoin', memo: '1' };
    const request = sellRequest({
      extras: { deposit: injected, deposit_address: injected.address, deposit_memo: '1', network: 'ethereum', side: 'buy' },
    });
    const order = await sell().createOrder(request);
    expect(order.deposit!.address).not.toBe(injected.address);
    expect(order.deposit!.memo).toBeUndefined();
    expect(validateWalletAddress('bitcoin', order.deposit!.address)).toMatchObject({ valid: true });
    const [held] = [...harness.simulator.sellOrders.values()].filter((o) => o.partner_order_id === request.orderId);
    expect(held!.deposit.address).toBe(order.deposit!.address);
    expect(JSON.stringify(held)).not.toContain(injected.address);
  });

  test('an unknown order is not_found', async () => {
    expect((await rejectionOf(sell().getOrder(randomUUID()), ProviderRejectedError)).code).toBe('not_found');
    expect((await rejectionOf(sell().getOrder(randomUUID(), randomUUID()), ProviderRejectedError)).code).toBe('not_found');
  });

  test('the creation switches apply to sell orders too', async () => {
    harness.simulator.faults.createRejectRate = 1;
    expect((await rejectionOf(sell().createOrder(sellRequest()), ProviderRejectedError)).code).toBe('rejected');
  });
});

describe('checkout actions, as signed webhooks and lookups report them', () => {
  test('pay: deposit received, payout pending, complete; the deposit transaction named', async () => {
    const { request, order, events, lookup } = await walked('pay', 'complete');
    expect(providerStatuses(events)).toEqual(['DEPOSIT_CONFIRMING', 'PAYOUT_PENDING', 'COMPLETED']);
    expectAllowedWalk(statuses(events));
    for (const event of events) {
      expect(event).toMatchObject({ orderId: request.orderId, providerOrderId: order.providerOrderId, deposit: order.deposit });
      expect(event.reported).toEqual(order.reported);
      expect(event.transactionHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(new Set(events.map((e) => e.eventId)).size).toBe(3);
    expect(lookup).toMatchObject({ status: 'complete', providerStatus: 'COMPLETED', transactionHash: events[0]!.transactionHash });
  });

  test('fail: the deposit arrives, the payout fails (payout_rejected); refund then returns the crypto', async () => {
    const { request, order, events } = await walked('fail', 'failed');
    expect(providerStatuses(events)).toEqual(['DEPOSIT_CONFIRMING', 'PAYOUT_FAILED']);
    expect(events[1]).toMatchObject({ status: 'failed', failureReason: 'payout_rejected' });
    expect((await checkout(order.redirectUrl, 'refund')).status).toBe(200);
    const all = await harness.waitForSellEvents(request.orderId, 3);
    expect(all[2]).toMatchObject({ providerStatus: 'REFUNDED', status: 'refunded', failureReason: 'payout_rejected' });
    expectAllowedWalk(statuses(all));
  });

  test('expire: no deposit in the window', async () => {
    const { events, lookup } = await walked('expire', 'expired');
    expect(providerStatuses(events)).toEqual(['EXPIRED']);
    expect(lookup).toMatchObject({ status: 'expired' });
    expect(lookup.transactionHash).toBeUndefined();
  });

  test('refund: the deposit received, then returned', async () => {
    const { events } = await walked('refund', 'refunded');
    expect(providerStatuses(events)).toEqual(['DEPOSIT_CONFIRMING', 'REFUNDED']);
    expect(events[1]).toMatchObject({ failureReason: 'customer_requested' });
    expectAllowedWalk(statuses(events));
  });

  test('wrong_amount: the provider reports the crypto amount received and the payout computed from it', async () => {
    const { order, events, lookup } = await walked('wrong_amount', 'complete', { amount: '0.008' });
    expect(providerStatuses(events)).toEqual(['DEPOSIT_CONFIRMING', 'PAYOUT_PENDING', 'COMPLETED']);
    const ordered = Number(order.reported!.fiatAmount);
    for (const event of [...events, lookup]) {
      expect(event.reported!.cryptoAmount).toBe('0.008');
      expect(Number(event.reported!.fiatAmount)).toBeLessThan(ordered * 0.81);
      expect(Number(event.reported!.fiatAmount)).toBeGreaterThan(ordered * 0.79);
      // The deposit instruction itself never changes.
      expect(event.deposit).toEqual(order.deposit);
    }
  });

  test('wrong_amount without an amount sends 90 % of the order’s', async () => {
    const { lookup } = await walked('wrong_amount', 'complete');
    expect(lookup.reported!.cryptoAmount).toBe('0.009');
  });

  test('wrong_amount too small to cover the fees is refunded', async () => {
    const { events } = await walked('wrong_amount', 'refunded', { amount: '0.000001' });
    expect(providerStatuses(events)).toEqual(['DEPOSIT_CONFIRMING', 'REFUNDED']);
    expect(events[1]).toMatchObject({ failureReason: 'deposit_below_fees' });
  });

  test('wrong_network: the deposit never arrives on the order’s network; the payout fails and the crypto goes back', async () => {
    const { events, lookup } = await walked('wrong_network', 'refunded');
    expect(providerStatuses(events)).toEqual(['PAYOUT_FAILED', 'REFUNDED']);
    expect(events[0]).toMatchObject({ status: 'failed', failureReason: 'deposit_wrong_network' });
    expect(lookup).toMatchObject({ status: 'refunded', failureReason: 'deposit_wrong_network' });
    expect(lookup.transactionHash).toBeUndefined();
    expectAllowedWalk(statuses(events));
  });

  test('late: expired, then revived by the deposit to complete', async () => {
    const { events } = await walked('late', 'complete');
    expect(providerStatuses(events)).toEqual(['EXPIRED', 'DEPOSIT_CONFIRMING', 'PAYOUT_PENDING', 'COMPLETED']);
    expectAllowedWalk(statuses(events));
  });

  test('pay on an expired order is a late deposit too', async () => {
    const { request, order } = await walked('expire', 'expired');
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    const events = await harness.waitForSellEvents(request.orderId, (all) => all.some((e) => e.status === 'complete'));
    expect(statuses(events)).toEqual(['expired', 'deposit_received', 'processing', 'complete']);
  });

  test('an action the status does not offer is 409 and changes nothing; a bad amount is 400', async () => {
    const { request, order } = await walked('pay', 'complete');
    const refused = await checkout(order.redirectUrl, 'refund');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'invalid_action', allowed: [] } });
    const fresh = await sell().createOrder(sellRequest());
    const bad = await fetch(fresh.redirectUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'wrong_amount', amount: '-1' }),
    });
    expect(bad.status).toBe(400);
    expect(await harness.sellEventsFor(request.orderId)).toHaveLength(3);
  });

  test('the checkout page shows the deposit address, its tag and the payout', async () => {
    const order = await sell().createOrder(
      sellRequest({ crypto: crypto('XRP', 'ripple'), cryptoAmount: '50', refundWalletAddress: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' }),
    );
    const page = await (await fetch(order.redirectUrl)).text();
    expect(page).toContain(`<dd id="deposit-address">${order.deposit!.address}</dd>`);
    expect(page).toContain(`<dd id="deposit-memo">${order.deposit!.memo}</dd>`);
    expect(page).toContain(`${order.reported!.fiatAmount} EUR by sepa`);
    expect(page).toContain('id="action-wrong_network"');
  });

  test('the pay switch (completionRate 0) plays pay as a failed payout', async () => {
    harness.simulator.faults.completionRate = 0;
    const { events } = await walked('pay', 'failed');
    expect(providerStatuses(events)).toEqual(['DEPOSIT_CONFIRMING', 'PAYOUT_FAILED']);
  });
});

describe('buy and sell webhooks do not cross', () => {
  function buyRequest(): CreateProviderOrderRequest {
    return {
      orderId: randomUUID(),
      fiat: fiat('USD'),
      crypto: crypto('BTC', 'bitcoin'),
      fiatAmount: '100.00',
      walletAddress: BTC_REFUND,
      paymentMethod: 'card',
      country: 'GB',
      externalUserId: 'user-1',
      extras: {},
    };
  }

  test('a genuine sell webhook: routed to the sell parser; the buy parser ignores it', async () => {
    const { request } = await walked('expire', 'expired');
    const webhook = harness.webhooks.find((w) => w.rawBody.toString().includes(request.orderId))!;
    expect(harness.adapter.sell!.isSellWebhook(webhook)).toBe(true);
    const ignored = await rejectionOf(harness.adapter.parseWebhook(webhook), IgnoredWebhookError);
    expect(ignored.message).toMatch(/sell/);
  });

  test('a genuine buy webhook: not routed to the sell parser, which refuses it', async () => {
    const request = buyRequest();
    const order = await harness.adapter.createOrder(request);
    expect((await checkout(order.redirectUrl, 'expire')).status).toBe(200);
    await harness.waitForEvents(request.orderId, 1);
    const webhook = harness.webhooks.find((w) => w.rawBody.toString().includes(request.orderId))!;
    expect(harness.adapter.sell!.isSellWebhook(webhook)).toBe(false);
    await rejectionOf(harness.adapter.sell!.parseWebhook(webhook), WebhookVerificationError);
    expect(await harness.sellEventsFor(request.orderId)).toEqual([]);
  });
});

describe('the deposit window', () => {
  let short: ProviderHarness<SandboxSimulator>;
  beforeAll(async () => {
    short = await startProviderHarness(harnessOptions(300));
  });
  afterAll(() => short.stop());

  test('an order without a deposit expires by itself at the end of its window; a deposit after it revives it', async () => {
    const request = sellRequest();
    const order = await short.adapter.sell!.createOrder(request);
    expect(Date.parse(order.deposit!.expiresAt!) - Date.now()).toBeLessThanOrEqual(300);
    const [expired] = await short.waitForSellEvents(request.orderId, 1);
    expect(expired).toMatchObject({ providerStatus: 'EXPIRED', status: 'expired' });
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    const events = await short.waitForSellEvents(request.orderId, 4);
    expect(statuses(events)).toEqual(['expired', 'deposit_received', 'processing', 'complete']);
  });

  test('an order with its deposit in time does not expire', async () => {
    const request = sellRequest();
    const order = await short.adapter.sell!.createOrder(request);
    expect((await checkout(order.redirectUrl, 'pay')).status).toBe(200);
    await short.waitForSellEvents(request.orderId, 3);
    await new Promise((r) => setTimeout(r, 400));
    expect(providerStatuses(await short.sellEventsFor(request.orderId))).toEqual(['DEPOSIT_CONFIRMING', 'PAYOUT_PENDING', 'COMPLETED']);
  });
});
