/**
 * MoonPay's sell (off-ramp) adapter against the MoonPay simulator over real HTTP on 127.0.0.1: the
 * sell catalogue and quote, the signed sell widget, each widget action's walk with its signed
 * `sell_transaction_*` webhooks, lookups by MoonPay id and by externalTransactionId, no deposit ever
 * reported, and buy and sell never crossing. No Temporal: a small receiver plays the webhook route.
 */
import { currencyDictionary } from '../../../src/domain/currencies';
import { createMoonpayAdapter, MOONPAY_SIMULATOR_CREDENTIALS, moonpayConfig } from '../../../src/providers/moonpay';
import type { CreateSellOrderRequest, SellAdapter } from '../../../src/providers/sell-types';
import { ProviderRejectedError } from '../../../src/providers/types';
import { createMoonpaySimulator } from '../../../src/simulators/moonpay/server';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { rejectionOf } from '../../helpers/rejection';
import { currencyId as idOf } from '../../helpers/currencies';
import { HOSTILE_DEPOSIT_EXTRAS, sellAdapterRequests } from '../../helpers/sell-adapter-requests';
import { expectLegalSellWalk } from '../../helpers/sell-walk';

const sellRequest = sellAdapterRequests({ extras: HOSTILE_DEPOSIT_EXTRAS });

describe('MoonPay sell adapter against the simulator', () => {
  const harness = useProviderHarness({
    code: 'moonpay',
    config: (urls) => moonpayConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: 'http://127.0.0.1:3000' }),
    simulator: (urls) =>
      createMoonpaySimulator({
        publicUrl: urls.publicUrl,
        brokerWebhookUrl: urls.webhookUrl,
        credentials: MOONPAY_SIMULATOR_CREDENTIALS,
        stepDelayMs: 40,
      }),
    adapter: (config) => createMoonpayAdapter(config, currencyDictionary),
  });
  const sell = (): SellAdapter => harness.adapter.sell!;

  /** Creates the order, opens the widget (the customer confirms: MoonPay makes the sell transaction) and returns the first webhook. */
  async function placed(request: CreateSellOrderRequest) {
    const created = await sell().createOrder(request);
    expect(created).toEqual({
      orderId: request.orderId,
      providerStatus: 'noSellTransactionYet',
      status: 'created',
      redirectUrl: expect.any(String),
    });
    expect(created.redirectUrl).toContain('/moonpay/sell-widget?');
    expect(created.redirectUrl).not.toContain('0bad');
    expect((await fetch(created.redirectUrl)).status).toBe(200);
    const [first] = await harness.waitForSellEvents(request.orderId, 1);
    return { redirectUrl: created.redirectUrl, first: first! };
  }

  it('reads the sell catalogue: crypto bought with its limits, payout methods per fiat, countries', async () => {
    const catalogue = await sell().getCatalogue();
    expect(catalogue.crypto).toEqual(expect.arrayContaining([idOf('BTC', 'bitcoin'), idOf('ETH', 'ethereum'), idOf('USDT', 'tron')]));
    expect(catalogue.crypto).not.toContain(idOf('XRP', 'ripple'));
    expect(catalogue.cryptoLimits?.[idOf('ETH', 'ethereum')]).toEqual({ min: expect.any(String), max: expect.any(String) });
    expect(catalogue.payoutMethods.map((m) => m.code)).toEqual(['card', 'sepa', 'bank_transfer', 'ach']);
    expect(Object.keys(catalogue.payoutMethods.find((m) => m.code === 'sepa')!.limits)).toEqual([String(idOf('EUR'))]);
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['DE', 'GB']));
  });

  it('quotes a sell: crypto in, the payout with fees taken off; refuses an amount under the minimum', async () => {
    const quote = await sell().getQuote({ ...sellRequest(), ip: undefined });
    expect(quote).toMatchObject({ cryptoAmount: '0.1', networkFee: '0', payoutMethod: 'sepa', expiresAt: expect.any(Date) });
    expect(Number(quote.fiatAmount)).toBeGreaterThan(0);
    expect(Number(quote.processingFee)).toBeGreaterThan(0);
    const refused = await rejectionOf(sell().getQuote({ ...sellRequest(), cryptoAmount: '0.00001' }), ProviderRejectedError);
    expect(refused.code).toBe('limits');
  });

  it('refuses a sell widget URL whose signature is tampered with', async () => {
    const created = await sell().createOrder(sellRequest());
    expect((await fetch(created.redirectUrl.replace('baseCurrencyAmount=0.1', 'baseCurrencyAmount=9'))).status).toBe(400);
  });

  it('pay: waitingForDeposit → pending with the deposit hash → completed, never a deposit address', async () => {
    const request = sellRequest();
    const { redirectUrl, first } = await placed(request);
    expect(first).toMatchObject({ status: 'waiting_for_deposit', providerStatus: 'waitingForDeposit' });
    expect((await checkout(redirectUrl, 'pay')).status).toBe(200);
    const events = await harness.waitForSellEvents(request.orderId, (e) => e.some((x) => x.status === 'complete'));
    expectLegalSellWalk(events);
    expect(events.map((e) => e.status)).toEqual(['waiting_for_deposit', 'deposit_received', 'complete']);
    expect(events[1]!.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    for (const event of events) expect(event.deposit).toBeUndefined();
    expect(events[2]!.reported).toMatchObject({
      cryptoCurrency: idOf('ETH', 'ethereum'),
      cryptoAmount: '0.1',
      fiatCurrency: idOf('EUR'),
      refundWalletAddress: request.refundWalletAddress,
    });
    const found = await sell().getOrder(request.orderId);
    expect(found).toMatchObject({
      status: 'complete',
      providerOrderId: first.providerOrderId,
      transactionHash: events[1]!.transactionHash,
    });
    expect(found.deposit).toBeUndefined();
    expect(await sell().getOrder(request.orderId, found.providerOrderId)).toMatchObject({ status: 'complete' });
    expect(await sell().createOrder(request)).toMatchObject({ status: 'complete' });
  });

  it.each([
    ['fail', 'failed'],
    ['expire', 'expired'],
  ] as const)('%s → %s', async (action, status) => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    expect((await checkout(redirectUrl, action)).status).toBe(200);
    const events = await harness.waitForSellEvents(request.orderId, 2);
    expectLegalSellWalk(events);
    expect(events[1]).toMatchObject({ status, providerStatus: 'failed' });
    expect((await sell().getOrder(request.orderId)).status).toBe(status);
  });

  it('wrong_amount: the crypto that arrived and its payout are reported', async () => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    await checkout(redirectUrl, 'wrong_amount');
    const events = await harness.waitForSellEvents(request.orderId, (e) => e.some((x) => x.status === 'complete'));
    expect(events.at(-1)!.reported?.cryptoAmount).toBe('0.09');
  });

  it('an action the status does not allow is refused', async () => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    await checkout(redirectUrl, 'expire');
    await harness.waitForSellEvents(request.orderId, 2);
    expect((await checkout(redirectUrl, 'pay')).status).toBe(409);
  });

  it("lists the sell transaction among the simulator's orders, so that the order's webhook switches reach it", async () => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    const listed = (await (await fetch(`${harness.urls.publicUrl}/_simulator/orders?reference=${request.orderId}`)).json()) as {
      orders: unknown[];
    };
    expect(listed.orders).toEqual([expect.objectContaining({ reference: request.orderId, status: 'waitingForDeposit' })]);
    const switched = await fetch(`${harness.urls.publicUrl}/_simulator/orders/${request.orderId}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dropWebhooks: true }),
    });
    expect(switched.status).toBe(200);
    const before = (await harness.sellEventsFor(request.orderId)).length;
    expect((await checkout(redirectUrl, 'pay')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 800));
    // The walk went on (the lookup says so), its webhooks dropped.
    expect((await sell().getOrder(request.orderId)).status).toBe('complete');
    expect(await harness.sellEventsFor(request.orderId)).toHaveLength(before);
  });

  it('buy and sell never cross: sell webhooks are routed to the sell parser, a sell order is no buy order', async () => {
    const request = sellRequest();
    await placed(request);
    expect((await harness.adapter.getOrder(request.orderId)).status).toBe('created');
  });
});
