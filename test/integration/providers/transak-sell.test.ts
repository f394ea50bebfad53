/**
 * Transak's sell (off-ramp) adapter against the Transak simulator over real HTTP on 127.0.0.1: the
 * sell catalogue and quote, SELL widget sessions, each checkout action's walk with its signed
 * webhooks (statuses, deposit, reported figures), lookups by Transak id and by partnerOrderId, and
 * buy and sell never crossing. No Temporal: a small receiver plays the broker's webhook route.
 */
import { currencyDictionary } from '../../../src/domain/currencies';
import type { SellOrderStatus } from '../../../src/domain/sell-order-status';
import { validateWalletAddress } from '../../../src/addresses/validate';
import { createTransakAdapter, TRANSAK_SIMULATOR_CREDENTIALS, transakConfig } from '../../../src/providers/transak';
import type { CreateSellOrderRequest, SellAdapter } from '../../../src/providers/sell-types';
import { ProviderRejectedError } from '../../../src/providers/types';
import { createTransakSimulator } from '../../../src/simulators/transak/server';
import { checkout } from '../../helpers/orders';
import { useProviderHarness } from '../../helpers/provider-harness';
import { rejectionOf } from '../../helpers/rejection';
import { cryptoOf as crypto, currencyId as idOf, fiatOf as fiat } from '../../helpers/currencies';
import { transakOrderRequest } from '../../helpers/transak-orders';
import { sellAdapterRequests } from '../../helpers/sell-adapter-requests';
import { expectLegalSellWalk } from '../../helpers/sell-walk';

const sellRequest = sellAdapterRequests({ fiat: fiat('GBP'), payoutMethod: 'bank_transfer', country: 'GB' });

describe('Transak sell adapter against the simulator', () => {
  const harness = useProviderHarness({
    code: 'transak',
    config: (urls) => transakConfig({}, { simulatorUrl: urls.simulatorUrl, brokerPublicUrl: 'http://127.0.0.1:3000' }),
    simulator: (urls) =>
      createTransakSimulator({
        publicUrl: urls.publicUrl,
        brokerWebhookUrl: urls.webhookUrl,
        credentials: TRANSAK_SIMULATOR_CREDENTIALS,
        stepDelayMs: 40,
      }),
    adapter: (config) => createTransakAdapter(config, currencyDictionary),
  });
  const sell = (): SellAdapter => harness.adapter.sell!;

  /** Creates the order, opens its widget (Transak makes the order) and returns what the first webhook said. */
  async function placed(request: CreateSellOrderRequest) {
    const created = await sell().createOrder(request);
    expect(created).toEqual({
      orderId: request.orderId,
      providerStatus: 'NO_ORDER_YET',
      status: 'created',
      redirectUrl: expect.any(String),
    });
    expect((await fetch(created.redirectUrl)).status).toBe(200);
    const [first] = await harness.waitForSellEvents(request.orderId, 1);
    return { redirectUrl: created.redirectUrl, first: first! };
  }

  it('reads the sell catalogue: assets taken in, bank payouts with their payout limits', async () => {
    const catalogue = await sell().getCatalogue();
    expect(catalogue.crypto).toEqual(
      expect.arrayContaining([idOf('BTC', 'bitcoin'), idOf('ETH', 'ethereum'), idOf('USDT', 'tron'), idOf('SOL', 'solana')]),
    );
    expect(catalogue.crypto).not.toContain(idOf('XRP', 'ripple')); // a tag network
    expect(catalogue.crypto).not.toContain(idOf('AVAX', 'avalanche')); // not taken in
    expect(catalogue.fiat.sort()).toEqual([idOf('EUR'), idOf('GBP')].sort());
    expect(catalogue.payoutMethods).toEqual([
      { code: 'sepa', name: 'SEPA Bank Transfer', icon_url: null, limits: { [idOf('EUR')]: { min: '23', max: '13800' } } },
      { code: 'bank_transfer', name: 'Faster Payments', icon_url: null, limits: { [idOf('GBP')]: { min: '19.75', max: '11850' } } },
    ]);
    expect(catalogue.countries.map((c) => c.code)).toEqual(expect.arrayContaining(['GB', 'DE']));
  });

  it('quotes a sell: crypto in, the payout net of fees', async () => {
    const quote = await sell().getQuote({
      crypto: crypto('ETH', 'ethereum'),
      fiat: fiat('GBP'),
      cryptoAmount: '0.1',
      payoutMethod: 'bank_transfer',
      country: 'GB',
      externalUserId: 'u',
    });
    // 0.1 ETH at 3200 USD × 0.79 less 0.99 %: 250.29 GBP gross, a 4.99 % fee (12.49) off.
    expect(quote).toEqual({
      cryptoAmount: '0.1',
      fiatAmount: '237.8',
      processingFee: '12.49',
      networkFee: '0',
      payoutMethod: 'bank_transfer',
      providerQuoteId: expect.any(String),
    });
    const refused = await rejectionOf(
      sell().getQuote({
        crypto: crypto('ETH', 'ethereum'),
        fiat: fiat('GBP'),
        cryptoAmount: '0.0001',
        payoutMethod: 'bank_transfer',
        country: 'GB',
        externalUserId: 'u',
      }),
      ProviderRejectedError,
    );
    expect(refused.code).toBe('limits');
  });

  it('pay: waits for the deposit Transak names, then pays out to complete', async () => {
    const request = sellRequest();
    const { redirectUrl, first } = await placed(request);
    expect(first).toMatchObject({ status: 'waiting_for_deposit', providerStatus: 'AWAITING_PAYMENT_FROM_USER' });
    const deposit = first.deposit!;
    expect(deposit).toEqual({
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      network: 'ethereum',
      amount: '0.1',
      expiresAt: expect.any(String),
    });
    expect(validateWalletAddress('ethereum', deposit.address)).toMatchObject({ valid: true });
    // An hour, written to the second as in Transak's example (`2024-06-10T11:59:51+00:00`).
    const window = Date.parse(deposit.expiresAt!) - Date.parse(first.providerOrderCreatedAt!);
    expect(window).toBeGreaterThan(3_599_000);
    expect(window).toBeLessThanOrEqual(3_600_000);
    // The order as Transak holds it, by partnerOrderId and by its id: the same deposit.
    const found = await sell().getOrder(request.orderId);
    expect(found).toMatchObject({ status: 'waiting_for_deposit', deposit });
    expect(await sell().getOrder(request.orderId, found.providerOrderId)).toMatchObject({ deposit });
    // Creating again reports the order and its deposit.
    expect(await sell().createOrder(request)).toMatchObject({ status: 'waiting_for_deposit', deposit });

    expect(await checkout(redirectUrl, 'pay')).toMatchObject({ status: 200, body: { status: 'PENDING_DELIVERY_FROM_TRANSAK' } });
    const events = await harness.waitForSellEvents(request.orderId, 3);
    expect(events.map((e) => [e.providerStatus, e.status])).toEqual([
      ['AWAITING_PAYMENT_FROM_USER', 'waiting_for_deposit'],
      ['PENDING_DELIVERY_FROM_TRANSAK', 'processing'],
      ['COMPLETED', 'complete'],
    ]);
    expectLegalSellWalk(events);
    for (const event of events) {
      expect(event).toMatchObject({
        orderId: request.orderId,
        deposit,
        reported: { cryptoCurrency: request.crypto.id, cryptoAmount: '0.1', fiatCurrency: request.fiat.id, fiatAmount: '237.8' },
      });
    }
    expect(new Set(events.map((e) => e.eventId)).size).toBe(3);
    expect(await sell().getOrder(request.orderId)).toMatchObject({ status: 'complete', providerStatus: 'COMPLETED' });
    expect(harness.refusals).toEqual([]);
  });

  it('wrong_amount: the reported figures follow the amount that arrived', async () => {
    const request = sellRequest({
      crypto: crypto('USDT', 'tron'),
      cryptoAmount: '200',
      fiat: fiat('EUR'),
      payoutMethod: 'sepa',
      country: 'DE',
    });
    const { redirectUrl, first } = await placed(request);
    expect(first.deposit).toMatchObject({ network: 'tron', amount: '200' });
    expect(validateWalletAddress('tron', first.deposit!.address)).toMatchObject({ valid: true });
    // 200 USDT at 0.92 EUR less 0.99 %: 182.18 gross, 9.10 of fees off.
    expect(first.reported).toMatchObject({ cryptoAmount: '200', fiatAmount: '173.07' });
    await checkout(redirectUrl, 'wrong_amount');
    const events = await harness.waitForSellEvents(request.orderId, 3);
    expect(events.map((e) => e.status)).toEqual(['waiting_for_deposit', 'processing', 'complete']);
    // 180 USDT arrived: 180 × 0.92 × 0.9901 = 163.96 gross, 8.19 of fees off.
    expect(events[2]).toMatchObject({
      reported: { cryptoAmount: '180', fiatAmount: '155.77' },
      deposit: { address: first.deposit!.address },
    });
    expect(await sell().getOrder(request.orderId)).toMatchObject({ reported: { cryptoAmount: '180', fiatAmount: '155.77' } });
  });

  it('fail, expire and refund walk to failed, expired and refunded', async () => {
    const walks: [string, SellOrderStatus[]][] = [
      ['fail', ['waiting_for_deposit', 'failed']],
      ['expire', ['waiting_for_deposit', 'expired']],
      ['refund', ['waiting_for_deposit', 'processing', 'refunded']],
    ];
    for (const [action, statuses] of walks) {
      const request = sellRequest({ crypto: crypto('BTC', 'bitcoin'), cryptoAmount: '0.002' });
      const { redirectUrl, first } = await placed(request);
      expect(validateWalletAddress('bitcoin', first.deposit!.address)).toMatchObject({ valid: true });
      expect((await checkout(redirectUrl, action)).status).toBe(200);
      const events = await harness.waitForSellEvents(request.orderId, statuses.length);
      expect(events.map((e) => e.status)).toEqual(statuses);
      expectLegalSellWalk(events);
      expect(events.every((e) => e.deposit?.address === first.deposit!.address && e.deposit.network === 'bitcoin')).toBe(true);
      expect(await sell().getOrder(request.orderId)).toMatchObject({ status: statuses.at(-1) });
      if (action === 'fail') expect(events[1]).toMatchObject({ failureReason: 'payout_failed' });
    }
  });

  it("refuses an action the sell order's status does not allow, and buy actions", async () => {
    const request = sellRequest();
    const { redirectUrl } = await placed(request);
    expect((await checkout(redirectUrl, 'hold')).status).toBe(409);
    await checkout(redirectUrl, 'expire');
    expect(await checkout(redirectUrl, 'refund')).toEqual({
      status: 409,
      body: { error: { code: 'invalid_action', message: expect.any(String), allowed: ['pay'] } },
    });
  });

  it('never lets buy and sell cross: webhooks, lookups by id and by partnerOrderId', async () => {
    const selling = sellRequest();
    const { redirectUrl: sellUrl } = await placed(selling);
    const buying = transakOrderRequest();
    const bought = await harness.adapter.createOrder(buying);
    await fetch(bought.redirectUrl);
    await checkout(sellUrl, 'pay');
    await checkout(bought.redirectUrl, 'pay');
    await harness.waitForSellEvents(selling.orderId, 3);
    await harness.waitForEvents(buying.orderId, 5);
    expect(await harness.eventsFor(selling.orderId)).toEqual([]);
    expect(await harness.sellEventsFor(buying.orderId)).toEqual([]);
    expect(harness.refusals).toEqual([]);

    const sellId = (await sell().getOrder(selling.orderId)).providerOrderId!;
    const buyId = (await harness.adapter.getOrder(buying.orderId)).providerOrderId!;
    expect((await rejectionOf(sell().getOrder(buying.orderId, buyId), ProviderRejectedError)).code).toBe('not_found');
    expect((await rejectionOf(harness.adapter.getOrder(selling.orderId, sellId), ProviderRejectedError)).code).toBe('not_found');
    // By partnerOrderId each side finds only its own product.
    expect(await sell().getOrder(buying.orderId)).toMatchObject({ status: 'created', providerStatus: 'NO_ORDER_YET' });
    expect(await harness.adapter.getOrder(selling.orderId)).toMatchObject({ status: 'created', providerStatus: 'NO_ORDER_YET' });
  });

  it("takes no deposit from extras or the widget URL: only Transak's order names it", async () => {
    const evil = '0x0000000000000000000000000000000000000bad';
    const request = sellRequest({
      extras: { paymentAddress: evil, cryptoPaymentData: { paymentAddress: evil }, deposit: { address: evil } },
    });
    const created = await sell().createOrder(request);
    expect(created).not.toHaveProperty('deposit');
    expect(created.redirectUrl).not.toContain('bad');
    await fetch(`${created.redirectUrl}&paymentAddress=${evil}`);
    const [first] = await harness.waitForSellEvents(request.orderId, 1);
    expect(first!.deposit!.address).not.toBe(evil);
    expect((await sell().getOrder(request.orderId)).deposit).toEqual(first!.deposit);
  });
});
