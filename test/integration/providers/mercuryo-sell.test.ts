/**
 * Mercuryo's sell (off-ramp) adapter against the Mercuryo simulator over real HTTP on 127.0.0.1: the
 * sell catalogue and quote, the signed type=sell widget, each widget action's walk with its signed
 * `sell`/`deposit` callbacks, the lookup by merchant_transaction_id, no deposit ever reported, and
 * buy and sell never crossing. No Temporal: a small receiver plays the webhook route.
 */
import { randomUUID } from 'node:crypto';
import { currencyDictionary } from '../../../src/domain/currencies';
import { createMercuryoAdapter, mercuryoConfig, MERCURYO_SIMULATOR_CREDENTIALS } from '../../../src/providers/mercuryo';
import type { CreateSellOrderRequest, SellAdapter } from '../../../src/providers/sell-types';
import { ProviderRejectedError } from '../../../src/providers/types';
import { createMercuryoSimulator } from '../../../src/simulators/mercuryo/server';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { rejectionOf } from '../../helpers/rejection';
import { cryptoOf as crypto, currencyId as idOf, fiatOf as fiat } from '../../helpers/currencies';
import { sellAdapterRequests } from '../../helpers/sell-adapter-requests';
import { expectLegalSellWalk } from '../../helpers/sell-walk';

const sellRequest = sellAdapterRequests({
  crypto: crypto('BTC', 'bitcoin'),
  cryptoAmount: '0.01',
  refundWalletAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
  payoutMethod: 'card',
  ip: '127.0.0.1',
  extras: { depositWalletAddress: 'bc1qbadbadbadbadbadbadbadbadbadbadbadbad0', deposit: { address: 'x' } },
});

describe('Mercuryo sell adapter against the simulator', () => {
  const harness = useProviderHarness({
    code: 'mercuryo',
    config: (urls) => mercuryoConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: 'http://127.0.0.1:3000' }),
    simulator: (urls) =>
      createMercuryoSimulator({
        publicUrl: urls.publicUrl,
        brokerWebhookUrl: urls.webhookUrl,
        credentials: MERCURYO_SIMULATOR_CREDENTIALS,
        stepDelayMs: 40,
      }),
    adapter: (config) => createMercuryoAdapter(config, currencyDictionary),
  });
  const sell = (): SellAdapter => harness.adapter.sell!;

  /** Creates the order, opens the widget (Mercuryo starts the sale: `sell:new`) and returns the first callback. */
  async function placed(request: CreateSellOrderRequest) {
    const created = await sell().createOrder(request);
    expect(created).toEqual({
      orderId: request.orderId,
      providerStatus: 'widget:not_opened',
      status: 'created',
      redirectUrl: expect.any(String),
    });
    expect(created.redirectUrl).toContain('type=sell');
    // The integrator's extras never reach the URL.
    expect(created.redirectUrl).not.toContain('bc1qbadbad');
    expect(new URL(created.redirectUrl).searchParams.has('deposit')).toBe(false);
    const page = await fetch(created.redirectUrl);
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ deposit_address: expect.stringMatching(/^bc1/) });
    const [first] = await harness.waitForSellEvents(request.orderId, 1);
    return { redirectUrl: created.redirectUrl, first: first! };
  }

  it('reads the sell catalogue: crypto bought with its limits, the card payout in EUR and USD, countries', async () => {
    const catalogue = await sell().getCatalogue();
    expect(catalogue.crypto).toEqual(expect.arrayContaining([idOf('BTC', 'bitcoin'), idOf('ETH', 'ethereum'), idOf('USDT', 'tron')]));
    expect(catalogue.crypto).not.toContain(idOf('USDT', 'polygon'));
    expect(catalogue.cryptoLimits?.[idOf('BTC', 'bitcoin')]).toEqual({ min: expect.any(String), max: expect.any(String) });
    expect(catalogue.payoutMethods.map((m) => m.code)).toEqual(['card']);
    expect(Object.keys(catalogue.payoutMethods[0]!.limits).map(Number).sort()).toEqual([idOf('EUR'), idOf('USD')].sort());
    expect(catalogue.fiat.sort()).toEqual([idOf('EUR'), idOf('USD')].sort());
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['DE', 'GB']));
  });

  it('quotes a sell: crypto in, the payout with the fee taken off; refuses an amount under the minimum as `limits`', async () => {
    const quote = await sell().getQuote({ ...sellRequest(), ip: undefined });
    expect(quote).toMatchObject({ cryptoAmount: '0.01', networkFee: '0', payoutMethod: 'card' });
    expect(quote.expiresAt).toBeUndefined();
    expect(Number(quote.fiatAmount)).toBeGreaterThan(0);
    expect(Number(quote.processingFee)).toBeGreaterThan(0);
    const refused = await rejectionOf(sell().getQuote({ ...sellRequest(), cryptoAmount: '0.00001' }), ProviderRejectedError);
    expect(refused.code).toBe('limits');
    const gbp = await rejectionOf(sell().getQuote({ ...sellRequest(), fiat: fiat('GBP') }), ProviderRejectedError);
    expect(gbp.code).toBe('currency');
  });

  it('refuses a sell widget URL whose signature does not cover its wallet or order id', async () => {
    const created = await sell().createOrder(sellRequest());
    const other = created.redirectUrl.replace(/merchant_transaction_id=[^&]+/, `merchant_transaction_id=${randomUUID()}`);
    expect((await fetch(other)).status).toBe(403);
    const request = sellRequest({ ip: '203.0.113.9' });
    expect((await fetch((await sell().createOrder(request)).redirectUrl)).status).toBe(403);
  });

  it('pay: sell:new → deposit new/pending/completed → sell pending → succeeded, never a deposit address', async () => {
    const request = sellRequest();
    const { redirectUrl, first } = await placed(request);
    expect(first).toMatchObject({ status: 'waiting_for_deposit', providerStatus: 'sell:new', providerOrderId: expect.any(String) });
    expect((await checkout(redirectUrl, 'pay')).status).toBe(200);
    const events = await harness.waitForSellEvents(request.orderId, (e) => e.some((x) => x.status === 'complete'));
    expectLegalSellWalk(events);
    expect(events.map((e) => e.providerStatus)).toEqual([
      'sell:new',
      'deposit:new',
      'deposit:pending',
      'deposit:completed',
      'sell:pending',
      'sell:succeeded',
    ]);
    expect(events.map((e) => e.status)).toEqual([
      'waiting_for_deposit',
      'waiting_for_deposit',
      'waiting_for_deposit',
      'deposit_received',
      'processing',
      'complete',
    ]);
    for (const event of events) expect(event.deposit).toBeUndefined();
    expect(events.at(-1)!.reported).toMatchObject({
      cryptoCurrency: idOf('BTC', 'bitcoin'),
      cryptoAmount: '0.01',
      fiatCurrency: idOf('EUR'),
      fiatAmount: expect.any(String),
    });
    const found = await sell().getOrder(request.orderId);
    expect(found).toMatchObject({ status: 'complete', providerStatus: 'sell:succeeded', providerOrderId: first.providerOrderId });
    expect(found.transactionHash).toMatch(/^[0-9a-f]{64}$/);
    expect(found.deposit).toBeUndefined();
    expect(await sell().createOrder(request)).toMatchObject({ status: 'complete' });
  });

  it.each([
    ['fail', 'failed', 'deposit:failed'],
    ['expire', 'expired', 'sell:failed'],
    ['refund', 'refunded', 'sell:failed'],
  ] as const)('%s → %s', async (action, status, providerStatus) => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    expect((await checkout(redirectUrl, action)).status).toBe(200);
    const events = await harness.waitForSellEvents(request.orderId, (e) => e.some((x) => x.providerStatus === providerStatus));
    expectLegalSellWalk(events);
    expect(events.at(-1)).toMatchObject({ status, providerStatus });
    expect(await sell().getOrder(request.orderId)).toMatchObject({ status, providerStatus });
  });

  it('wrong_amount: the crypto that arrived and its payout are reported', async () => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    await checkout(redirectUrl, 'wrong_amount');
    const events = await harness.waitForSellEvents(request.orderId, (e) => e.some((x) => x.status === 'complete'));
    expect(events.at(-1)!.reported?.cryptoAmount).toBe('0.009');
  });

  it('an action the status does not allow is refused', async () => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    await checkout(redirectUrl, 'expire');
    await harness.waitForSellEvents(request.orderId, 2);
    expect((await checkout(redirectUrl, 'pay')).status).toBe(409);
  });

  it('buy and sell never cross: sell callbacks go to the sell parser, a sell order is no buy order', async () => {
    const request = sellRequest();
    await placed(request);
    expect((await harness.adapter.getOrder(request.orderId)).status).toBe('created');
  });
});
