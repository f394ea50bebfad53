import { currencyDictionary } from '../../../../src/domain/currencies';
import { isSellOrderStatus } from '../../../../src/domain/sell-order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import { fromSellOrder } from '../../../../src/providers/sandbox/sell-transformers';
import {
  mapSandboxSellStatus,
  SANDBOX_SELL_STATUS_MAP,
  SANDBOX_SELL_STATUSES,
  type SandboxSellStatus,
} from '../../../../src/providers/sandbox/sell-status-map';
import { isSandboxSellWebhook, parseSandboxSellWebhook } from '../../../../src/providers/sandbox/sell-webhook';
import { parseSandboxWebhook, SANDBOX_SIGNATURE_HEADER } from '../../../../src/providers/sandbox/webhook';
import { IgnoredWebhookError, WebhookVerificationError, type IncomingWebhook } from '../../../../src/providers/types';
import { SELL_STATUSES } from '../../../../src/simulators/sandbox/sell-orders';
import { signSandboxPayload } from '../../../../src/simulators/sandbox/signing';
import { cryptoOf as crypto, fiatOf as fiat } from '../../../helpers/currencies';

const SECRET = 'sandbox_test_webhook_secret';
const NOW = 1_900_000_000;
const ORDER_ID = '2f8c1a7e-0b1d-5c3e-9a4f-6d2e8b7c1a90';
const REFUND = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const DEPOSIT = 'bc1qswjc2wvlv850qhfh6233u5gterl09yq583yss5';

function sellOrder(status: SandboxSellStatus = 'DEPOSIT_CONFIRMING', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'sbx_sell_42',
    partner_order_id: ORDER_ID,
    side: 'sell',
    status,
    crypto_currency: 'BTC',
    network: 'bitcoin',
    crypto_amount: '0.01',
    received_crypto_amount: '0.01',
    fiat_currency: 'EUR',
    fiat_amount: '853.76',
    processing_fee: '4.35',
    network_fee: '0.92',
    payout_method: 'sepa',
    country: 'DE',
    refund_address: REFUND,
    deposit: { address: DEPOSIT, network: 'bitcoin', amount: '0.01', expires_at: '2030-01-01T12:30:00.000Z' },
    deposit_tx_hash: 'ab'.repeat(32),
    checkout_url: 'http://127.0.0.1:4010/sandbox/sell/checkout/sbx_sell_42',
    created_at: '2030-01-01T12:00:00.000Z',
    updated_at: '2030-01-01T12:01:00.000Z',
    ...extra,
  };
}

const sellEvent = (order: Record<string, unknown> = sellOrder(), extra: Record<string, unknown> = {}) => ({
  event_id: 'evt_sell_1',
  event_type: 'sell_order.status_changed',
  side: 'sell',
  created_at: '2030-01-01T12:01:00.000Z',
  order,
  ...extra,
});

const buyEvent = () => ({
  event_id: 'evt_buy_1',
  event_type: 'order.status_changed',
  order: {
    id: 'sbx_order_42',
    partner_order_id: ORDER_ID,
    status: 'PAYMENT_RECEIVED',
    fiat_currency: 'USD',
    fiat_amount: '100.00',
    crypto_currency: 'BTC',
    network: 'bitcoin',
    wallet_address: REFUND,
    crypto_amount: '0.00097992',
    checkout_url: 'http://127.0.0.1:4010/checkout/sbx_order_42',
    updated_at: '2030-01-01T12:00:00.000Z',
  },
});

function signed(body: string, options: { secret?: string; at?: number } = {}): IncomingWebhook {
  const header = signSandboxPayload(options.secret ?? SECRET, body, options.at ?? NOW);
  return { headers: { [SANDBOX_SIGNATURE_HEADER]: header }, rawBody: Buffer.from(body, 'utf8'), query: {} };
}

const parseSell = (webhook: IncomingWebhook) => parseSandboxSellWebhook(webhook, SECRET, currencyDictionary, NOW);

function sellRefusal(webhook: IncomingWebhook): WebhookVerificationError {
  try {
    parseSell(webhook);
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return err as WebhookVerificationError;
  }
  throw new Error('expected a WebhookVerificationError');
}

describe('the sell status map', () => {
  test('maps every status the simulator has, and only those, onto sell statuses', () => {
    expect([...SANDBOX_SELL_STATUSES].sort()).toEqual([...SELL_STATUSES].sort());
    for (const status of SANDBOX_SELL_STATUSES) expect(isSellOrderStatus(SANDBOX_SELL_STATUS_MAP[status])).toBe(true);
  });

  test.each(['PAYMENT_RECEIVED', 'CREATED', 'SETTLED', 'toString', '__proto__', ''])('refuses %p', (status) => {
    expect(() => mapSandboxSellStatus(status)).toThrow(UnknownProviderStatusError);
  });
});

describe('parseSandboxSellWebhook accepts', () => {
  test('a signed sell event, its deposit and terms only from the body', () => {
    const event = parseSell(signed(JSON.stringify(sellEvent())));
    expect(event).toEqual({
      eventId: 'evt_sell_1',
      orderId: ORDER_ID,
      providerOrderId: 'sbx_sell_42',
      providerStatus: 'DEPOSIT_CONFIRMING',
      status: 'deposit_received',
      deposit: { address: DEPOSIT, network: 'bitcoin', amount: '0.01', expiresAt: '2030-01-01T12:30:00.000Z' },
      transactionHash: 'ab'.repeat(32),
      reported: {
        cryptoCurrency: crypto('BTC', 'bitcoin').id,
        cryptoAmount: '0.01',
        fiatCurrency: fiat('EUR').id,
        fiatAmount: '853.76',
        refundWalletAddress: REFUND,
      },
      providerOrderCreatedAt: '2030-01-01T12:00:00.000Z',
    });
  });

  test('a failed payout with its reason; a memo; the received amount over the ordered one; unknown currencies as null', () => {
    const order = sellOrder('PAYOUT_FAILED', {
      failure_reason: 'payout_rejected',
      crypto_currency: 'XRP',
      network: 'ripple',
      received_crypto_amount: '45',
      crypto_amount: '50',
      fiat_currency: 'XYZ',
      deposit: {
        address: 'r4PL6XoqspfE3JWH4BwzF5Dmy7DTVmMuw2',
        memo: '3400637736',
        network: 'ripple',
        amount: '50',
        expires_at: '2030-01-01T12:30:00.000Z',
      },
    });
    const event = parseSell(signed(JSON.stringify(sellEvent(order))));
    expect(event).toMatchObject({
      status: 'failed',
      failureReason: 'payout_rejected',
      deposit: { address: 'r4PL6XoqspfE3JWH4BwzF5Dmy7DTVmMuw2', memo: '3400637736', network: 'ripple' },
      reported: { cryptoCurrency: crypto('XRP', 'ripple').id, cryptoAmount: '45', fiatCurrency: null },
    });
  });

  test('a deposit on a network the asset does not have is reported as written (the order refuses it)', () => {
    const order = sellOrder('AWAITING_DEPOSIT', {
      deposit: { address: DEPOSIT, network: 'bitcoin_testnet', amount: '0.01', expires_at: '2030-01-01T12:30:00.000Z' },
    });
    expect(fromSellOrder(order as never, currencyDictionary).deposit!.network).toBe('bitcoin_testnet');
  });
});

describe('parseSandboxSellWebhook refuses', () => {
  test('a tampered body', () => {
    const body = JSON.stringify(sellEvent());
    const webhook = signed(body);
    const tampered = { ...webhook, rawBody: Buffer.from(body.replace(DEPOSIT, 'bc1qg42tkwuuxefutzxezdkdel39gfstuap2ytnvvv'), 'utf8') };
    expect(sellRefusal(tampered).message).toMatch(/does not match/);
  });

  test('a body signed with another secret (forged)', () => {
    expect(sellRefusal(signed(JSON.stringify(sellEvent()), { secret: 'guessed' })).message).toMatch(/does not match/);
  });

  test('no signature, a malformed one, a stale one', () => {
    const body = JSON.stringify(sellEvent());
    expect(sellRefusal({ headers: {}, rawBody: Buffer.from(body), query: {} }).message).toMatch(/missing/);
    expect(sellRefusal({ headers: { [SANDBOX_SIGNATURE_HEADER]: 't=1,v1=zz' }, rawBody: Buffer.from(body), query: {} }).message).toMatch(
      /malformed/,
    );
    expect(sellRefusal(signed(body, { at: NOW - 301 })).message).toMatch(/tolerance/);
  });

  test('a genuine buy event (well signed, not a sell)', () => {
    expect(sellRefusal(signed(JSON.stringify(buyEvent()))).message).toMatch(/not a sell order event/);
  });

  test('a status the sandbox does not document', () => {
    expect(() => parseSell(signed(JSON.stringify(sellEvent(sellOrder('PAYOUT_SENT' as SandboxSellStatus)))))).toThrow(
      WebhookVerificationError,
    );
  });

  test('a body that names a key twice (two sides, two deposits)', () => {
    const body = JSON.stringify(sellEvent()).replace('"side":"sell"', '"side":"buy","side":"sell"');
    expect(sellRefusal(signed(body)).message).toMatch(/duplicate/);
  });

  test('a deposit with a field the protocol does not have, or without its address', () => {
    const extra = sellOrder('AWAITING_DEPOSIT', {
      deposit: { address: DEPOSIT, network: 'bitcoin', amount: '0.01', expires_at: '2030-01-01T12:30:00.000Z', tag: '1' },
    });
    expect(() => parseSell(signed(JSON.stringify(sellEvent(extra))))).toThrow(WebhookVerificationError);
    const { deposit: _dropped, ...without } = sellOrder();
    expect(() => parseSell(signed(JSON.stringify(sellEvent(without))))).toThrow(WebhookVerificationError);
  });

  test('an order marked as a buy inside a sell event', () => {
    expect(() => parseSell(signed(JSON.stringify(sellEvent(sellOrder('COMPLETED', { side: 'buy' })))))).toThrow(WebhookVerificationError);
  });
});

describe('routing between the buy and sell parsers', () => {
  test('isSellWebhook reads the unverified marker only', () => {
    const route = (body: string) => isSandboxSellWebhook({ headers: {}, rawBody: Buffer.from(body), query: {} });
    expect(route(JSON.stringify(sellEvent()))).toBe(true);
    expect(route(JSON.stringify(buyEvent()))).toBe(false);
    expect(route('not json')).toBe(false);
    expect(route('["sell"]')).toBe(false);
    expect(route('{"side":"SELL"}')).toBe(false);
    // Routed as a sell, then refused there unless it is a genuine, signed sell event.
    expect(route('{"side":"sell"}')).toBe(true);
    expect(() => parseSell(signed('{"side":"sell"}'))).toThrow(WebhookVerificationError);
  });

  test('the buy parser ignores a verified sell event (IgnoredWebhookError), and refuses a forged one', () => {
    const body = JSON.stringify(sellEvent());
    expect(() => parseSandboxWebhook(signed(body), SECRET, currencyDictionary, NOW)).toThrow(IgnoredWebhookError);
    expect(() => parseSandboxWebhook(signed(body, { secret: 'guessed' }), SECRET, currencyDictionary, NOW)).toThrow(
      WebhookVerificationError,
    );
  });

  test('the buy parser still reads a buy event', () => {
    expect(parseSandboxWebhook(signed(JSON.stringify(buyEvent())), SECRET, currencyDictionary, NOW)).toMatchObject({
      orderId: ORDER_ID,
      status: 'processing',
    });
  });
});
