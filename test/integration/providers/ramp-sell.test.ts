/**
 * Ramp's sell (off-ramp) adapter against the Ramp simulator over real HTTP on 127.0.0.1: the sell
 * catalogue and quote, the OFFRAMP widget URL, each widget action's walk with its signed sale
 * webhooks to the widget's offrampWebhookV3Url, the sale lookup with its view token, no deposit ever
 * reported, and buy and sell never crossing. No Temporal: a small receiver plays the webhook route.
 */
import { currencyDictionary } from '../../../src/domain/currencies';
import { createRampAdapter, rampConfig, RAMP_SIMULATOR_CREDENTIALS } from '../../../src/providers/ramp';
import type { CreateSellOrderRequest, SellAdapter } from '../../../src/providers/sell-types';
import { ProviderRejectedError } from '../../../src/providers/types';
import { createRampSimulator } from '../../../src/simulators/ramp/server';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { rejectionOf } from '../../helpers/rejection';
import { cryptoOf as crypto, currencyId as idOf } from '../../helpers/currencies';
import { HOSTILE_DEPOSIT_EXTRAS, sellAdapterRequests } from '../../helpers/sell-adapter-requests';
import { expectLegalSellWalk } from '../../helpers/sell-walk';

const sellRequest = sellAdapterRequests({ extras: HOSTILE_DEPOSIT_EXTRAS });

describe('Ramp sell adapter against the simulator', () => {
  const harness = useProviderHarness({
    code: 'ramp',
    config: (urls) => rampConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: urls.brokerUrl }),
    // Posts there are strays: sale webhooks must go to each widget's offrampWebhookV3Url.
    simulator: (urls) =>
      createRampSimulator({
        publicUrl: urls.publicUrl,
        brokerWebhookUrl: `${urls.brokerUrl}/fixed-webhook-url`,
        credentials: RAMP_SIMULATOR_CREDENTIALS,
        stepDelayMs: 40,
      }),
    adapter: (config) => createRampAdapter(config, currencyDictionary),
    orderOf: (webhook) => webhook.query.order_id,
  });
  const sell = (): SellAdapter => harness.adapter.sell!;

  /** Creates the order, opens the widget (the customer accepts the sale: Ramp makes it) and returns the first webhook. */
  async function placed(request: CreateSellOrderRequest) {
    const created = await sell().createOrder(request);
    expect(created).toEqual({
      orderId: request.orderId,
      providerStatus: 'NO_SALE_YET',
      status: 'created',
      redirectUrl: expect.any(String),
    });
    expect(created.redirectUrl).toContain('/ramp/app?');
    expect(created.redirectUrl).not.toContain('0bad');
    const page = await fetch(created.redirectUrl);
    expect(page.status).toBe(200);
    // The widget shows the deposit address to the customer; nothing the broker reads carries it.
    const deposit = /id="deposit-address">([^<]+)</.exec(await page.text())?.[1];
    expect(deposit).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const [first] = await harness.waitForSellEvents(request.orderId, 1);
    return { redirectUrl: created.redirectUrl, first: first!, deposit: deposit! };
  }

  afterEach(() => expect(harness.strays).toEqual([]));

  it('reads the sell catalogue: crypto bought, payout methods per fiat, countries a payout method serves', async () => {
    const catalogue = await sell().getCatalogue();
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([idOf('ETH', 'ethereum'), idOf('USDC', 'ethereum'), idOf('SOL', 'solana'), idOf('ETH', 'base')]),
    );
    expect(catalogue.crypto).not.toContain(idOf('BTC', 'bitcoin'));
    expect(catalogue.fiat.sort()).toEqual([idOf('EUR'), idOf('GBP'), idOf('USD')].sort());
    expect(catalogue.payoutMethods.map((m) => m.code)).toEqual(['card', 'sepa', 'ach']);
    expect(Object.keys(catalogue.payoutMethods.find((m) => m.code === 'sepa')!.limits)).toEqual([String(idOf('EUR'))]);
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['DE', 'GB', 'US']));
    expect(catalogue.countries.map((c) => c.code)).not.toContain('BR');
  });

  it('quotes a sale: crypto in, the payout with the fee taken off; refuses an amount under the minimum and an unsold asset', async () => {
    const quote = await sell().getQuote(sellRequest());
    expect(quote).toMatchObject({ cryptoAmount: '0.1', networkFee: '0', payoutMethod: 'sepa' });
    expect(quote.expiresAt).toBeUndefined();
    expect(Number(quote.fiatAmount)).toBeGreaterThan(0);
    expect(Number(quote.processingFee)).toBeGreaterThan(0);
    const card = await sell().getQuote(sellRequest({ payoutMethod: 'card' }));
    expect(Number(card.fiatAmount)).toBeLessThan(Number(quote.fiatAmount));
    expect((await rejectionOf(sell().getQuote(sellRequest({ cryptoAmount: '0.0001' })), ProviderRejectedError)).code).toBe('limits');
    expect((await rejectionOf(sell().getQuote(sellRequest({ payoutMethod: 'ach' })), ProviderRejectedError)).code).toBe('payment_method');
    const btc = sellRequest({ crypto: crypto('BTC', 'bitcoin'), refundWalletAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' });
    expect((await rejectionOf(sell().getQuote(btc), ProviderRejectedError)).code).toBe('currency');
  });

  it('pay: CREATED → CREATED with the transaction → RELEASED; never a deposit address; the lookup agrees', async () => {
    const request = sellRequest();
    const { redirectUrl, first, deposit } = await placed(request);
    expect(first).toMatchObject({
      status: 'waiting_for_deposit',
      providerStatus: 'CREATED',
      providerOrderId: expect.stringMatching(/^[^:]+:[0-9a-f]+$/),
    });
    expect((await checkout(redirectUrl, 'pay')).status).toBe(200);
    const events = await harness.waitForSellEvents(request.orderId, (e) => e.some((x) => x.status === 'complete'));
    expectLegalSellWalk(events);
    expect(events.map((e) => e.status)).toEqual(['waiting_for_deposit', 'deposit_received', 'complete']);
    expect(events[1]!.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    for (const event of events) {
      expect(event.deposit).toBeUndefined();
      expect(event.providerOrderId).toBe(first.providerOrderId);
      expect(event.claimKey).toBe(`sale:${first.providerOrderId!.split(':')[0]}`);
    }
    expect(events[2]!.reported).toMatchObject({ cryptoCurrency: idOf('ETH', 'ethereum'), cryptoAmount: '0.1', fiatCurrency: idOf('EUR') });
    for (const webhook of harness.webhooks) expect(webhook.rawBody.toString()).not.toContain(deposit);
    const found = await sell().getOrder(request.orderId, first.providerOrderId);
    expect(found).toMatchObject({
      status: 'complete',
      providerStatus: 'RELEASED',
      providerOrderId: first.providerOrderId,
      transactionHash: events[1]!.transactionHash,
    });
    expect(found.reported?.fiatAmount).toBe(events[2]!.reported?.fiatAmount);
    expect(found.deposit).toBeUndefined();
    // Before a sale is known the order has none to read; a view token that is not the sale's opens nothing.
    expect(await sell().getOrder(request.orderId)).toMatchObject({ status: 'created', providerStatus: 'NO_SALE_YET' });
    const [saleId] = first.providerOrderId!.split(':');
    expect((await rejectionOf(sell().getOrder(request.orderId, `${saleId}:wrongtoken`), ProviderRejectedError)).code).toBe('not_found');
  });

  it('hold: the crypto arrives, the sale waits at deposit_received until pay releases it', async () => {
    const request = sellRequest({ crypto: crypto('USDC', 'ethereum'), cryptoAmount: '50' });
    const { redirectUrl } = await placed(request);
    await checkout(redirectUrl, 'hold');
    const held = await harness.waitForSellEvents(request.orderId, 2);
    expect(held[1]).toMatchObject({ status: 'deposit_received', reported: { cryptoAmount: '50' } });
    await checkout(redirectUrl, 'pay');
    expect((await harness.waitForSellEvents(request.orderId, 3))[2]!.status).toBe('complete');
  });

  it('expire → expired, and the lookup says so', async () => {
    const request = sellRequest();
    const { redirectUrl, first } = await placed(request);
    expect((await checkout(redirectUrl, 'expire')).status).toBe(200);
    const events = await harness.waitForSellEvents(request.orderId, 2);
    expectLegalSellWalk(events);
    expect(events[1]).toMatchObject({ status: 'expired', providerStatus: 'EXPIRED' });
    expect((await sell().getOrder(request.orderId, first.providerOrderId)).status).toBe('expired');
    expect((await checkout(redirectUrl, 'pay')).status).toBe(409);
  });

  it.each(['fail', 'refund'])('%s: refused, as Ramp documents no such sale status', async (action) => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    const response = await checkout(redirectUrl, action);
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ error: { code: 'action_not_documented' } });
  });

  it('wrong_amount: the crypto that arrived and its payout are reported', async () => {
    const request = sellRequest();
    const { redirectUrl, first } = await placed(request);
    await checkout(redirectUrl, 'wrong_amount');
    const events = await harness.waitForSellEvents(request.orderId, (e) => e.some((x) => x.status === 'complete'));
    expect(events.at(-1)!.reported?.cryptoAmount).toBe('0.09');
    expect(Number(events.at(-1)!.reported?.fiatAmount)).toBeLessThan(Number(first.reported?.fiatAmount));
  });

  it('buy and sell never cross: sale webhooks reach the sell parser only, a sell order is no purchase', async () => {
    const request = sellRequest();
    const { first } = await placed(request);
    expect(harness.ignored).toEqual([]);
    expect((await harness.adapter.getOrder(request.orderId)).status).toBe('created');
    expect(first.claimKey).toMatch(/^sale:/);
  });
});
