import { currencyDictionary } from '../../../../src/domain/currencies';
import { isSellOrderStatus } from '../../../../src/domain/sell-order-status';
import { UnknownProviderStatusError } from '../../../../src/providers/kit/status-map';
import type { BanxaOrder } from '../../../../src/providers/banxa/schemas';
import { BANXA_SELL_STATUSES, BANXA_SELL_STATUS_MAP, mapBanxaSellStatus } from '../../../../src/providers/banxa/sell-status-map';
import { fromSellOrder, reportedSellDeposit } from '../../../../src/providers/banxa/sell-transformers';
import { isBanxaSellWebhook } from '../../../../src/providers/banxa/sell-webhook';

const DEPOSIT = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const REFUND = '0xD902d7eBF7bc5eCa9EEA22a6Ee9F1A30EBeBEFeE';

const order = (overrides: Partial<BanxaOrder> = {}): BanxaOrder => ({
  id: 'b1',
  status: 'waitingPayment',
  orderType: 'SELL',
  externalOrderId: 'o1',
  crypto: { id: 'ETH', blockchain: 'ETH', address: null },
  fiat: 'EUR',
  fiatAmount: '290.00',
  cryptoAmount: '0.1',
  walletAddress: DEPOSIT,
  walletAddressTag: null,
  metadata: { refundWalletAddress: REFUND },
  ...overrides,
});

describe('Banxa sell status map', () => {
  it('maps every documented status onto the sell set, and refuses any other', () => {
    for (const status of BANXA_SELL_STATUSES) expect(isSellOrderStatus(mapBanxaSellStatus(status).status)).toBe(true);
    expect(BANXA_SELL_STATUS_MAP.waitingPayment).toBe('waiting_for_deposit');
    expect(BANXA_SELL_STATUS_MAP.paymentReceived).toBe('deposit_received');
    expect(mapBanxaSellStatus('declined')).toEqual({ status: 'failed', failureReason: 'payout_declined' });
    expect(() => mapBanxaSellStatus('teleported')).toThrow(UnknownProviderStatusError);
    expect(() => mapBanxaSellStatus('toString')).toThrow(UnknownProviderStatusError);
  });
});

describe('Banxa sell deposit', () => {
  it('is read from a SELL lookup at waitingPayment or later, on the dictionary network', () => {
    expect(reportedSellDeposit(order())).toEqual({ address: DEPOSIT, network: 'ethereum', amount: '0.1' });
    expect(reportedSellDeposit(order({ crypto: { id: 'XRP', blockchain: 'XRP' }, walletAddressTag: '42' }))).toMatchObject({
      network: 'ripple',
      memo: '42',
    });
    expect(reportedSellDeposit(order({ status: 'pendingPayment' }))).toBeUndefined();
    expect(reportedSellDeposit(order({ status: 'extraVerification' }))).toBeUndefined();
    expect(reportedSellDeposit(order({ orderType: 'BUY' }))).toBeUndefined();
    expect(reportedSellDeposit(order({ orderType: undefined }))).toBeUndefined();
    // The customer's own wallet in walletAddress is the create body's meaning: never a deposit.
    expect(reportedSellDeposit(order({ walletAddress: REFUND.toLowerCase() }))).toBeUndefined();
  });

  it('reports the terms without a refund address, and refuses a buy order', () => {
    expect(fromSellOrder(order(), currencyDictionary)).toMatchObject({
      orderId: 'o1',
      status: 'waiting_for_deposit',
      reported: { cryptoAmount: '0.1', fiatAmount: '290' },
    });
    expect(fromSellOrder(order(), currencyDictionary).reported).not.toHaveProperty('refundWalletAddress');
    expect(() => fromSellOrder(order({ orderType: 'BUY' }), currencyDictionary)).toThrow(/not a SELL order/);
  });
});

describe('isBanxaSellWebhook', () => {
  const hook = (body: string) => ({ headers: {}, rawBody: Buffer.from(body), query: {} });
  it('routes by order_type SELL only', () => {
    expect(isBanxaSellWebhook(hook('{"order_id":"1","order_type":"SELL"}'))).toBe(true);
    expect(isBanxaSellWebhook(hook('{"order_id":"1","order_type":"BUY"}'))).toBe(false);
    expect(isBanxaSellWebhook(hook('{"order_id":"1"}'))).toBe(false);
    expect(isBanxaSellWebhook(hook('not json'))).toBe(false);
  });
});
