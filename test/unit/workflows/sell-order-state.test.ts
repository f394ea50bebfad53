import type { SellOrderMemo, SellOrderWorkflowInput, SellProviderEvent } from '../../../src/temporal/sell-order-contract';
import { DEFAULT_ORDER_TIMINGS } from '../../../src/temporal/order-contract';
import { SellOrderState, type CreatedSellOrder } from '../../../workflows/sell-order-state';

const ETH = 14;
const EUR = 2;
const USD = 1;
const START = Date.parse('2026-11-30T10:00:00.000Z');
const HOUR = 3_600_000;
const REFUND = '0x52908400098527886E0F7030069857D2E4169EE7';
const DEPOSIT = '0x8617E340B3D01FA5F11F306F4090FD50E238070D';
const ATTACKER = '0xde709f2102306220921060314715629080e2fb77';

const input: SellOrderWorkflowInput = {
  kind: 'off_ramp',
  orderId: '00000000-0000-5000-8000-0000000000aa',
  integratorId: 'demo',
  providerCode: 'sandbox',
  requestHash: 'h',
  network: 'ethereum',
  timings: { ...DEFAULT_ORDER_TIMINGS, paymentWindowMs: 2 * HOUR },
  request: {
    from_currency: ETH,
    from_amount: '0.500000000000000000',
    to_currency: EUR,
    to_amount: '1450.00',
    refund_wallet_address: REFUND,
    payout_method: 'sepa',
    country_code: 'DE',
    external_user_id: 'user-1',
    external_order_id: 'sell-1',
    extras: { note: 'kept', deposit_address: ATTACKER },
  },
};

const deposit = { address: DEPOSIT, network: 'ethereum', amount: '0.5' };

const created: CreatedSellOrder = {
  providerOrderId: 'sb-sell-1',
  providerStatus: 'AWAITING_DEPOSIT',
  status: 'waiting_for_deposit',
  redirectUrl: 'http://127.0.0.1/checkout/sb-sell-1',
  deposit,
};

function recorder() {
  const memos: SellOrderMemo[] = [];
  const attributes: unknown[] = [];
  const reviews: [string, string, string][] = [];
  const warnings: string[] = [];
  let now = START;
  return {
    memos,
    attributes,
    reviews,
    warnings,
    setNow: (ms: number) => (now = ms),
    effects: {
      now: () => now,
      upsertMemo: (memo: SellOrderMemo) => memos.push(memo),
      upsertSearchAttributes: (value: unknown) => attributes.push(value),
      log: { info: () => undefined, warn: (message: string) => warnings.push(message) },
      raiseReview: (reason: string, key: string, detail: string) => reviews.push([reason, key, detail]),
    },
  };
}

function sellState(createdOverrides: Partial<CreatedSellOrder> = {}, check = { valid: true }) {
  const effects = recorder();
  const state = new SellOrderState({ input, effects: effects.effects });
  state.created({ ...created, ...createdOverrides }, check);
  return { state, effects };
}

const report = (overrides: Partial<SellProviderEvent> = {}): SellProviderEvent => ({
  providerCode: 'sandbox',
  providerOrderId: 'sb-sell-1',
  providerStatus: 'DEPOSIT_CONFIRMING',
  status: 'deposit_received',
  ...overrides,
});

describe('SellOrderState: creation', () => {
  it('publishes created, then applies the create answer: waiting for deposit, with its deposit', () => {
    const { state } = sellState();
    const order = state.memo!.order;
    expect(order).toMatchObject({
      kind: 'off_ramp',
      status: 'waiting_for_deposit',
      deposit: { address: DEPOSIT, network: 'ethereum', amount: '0.5' },
    });
    expect(state.memo!.sequence).toBe(2);
    expect(state.outbox.map((n) => n.order.status)).toEqual(['created', 'waiting_for_deposit']);
    expect(state.outbox.map((n) => n.webhookId)).toEqual([`evt_${input.orderId}_1`, `evt_${input.orderId}_2`]);
  });

  it('never takes a deposit from the integrator: extras are the integrator’s, the deposit the provider’s', () => {
    const { state } = sellState({ deposit: undefined });
    expect(state.memo!.order.deposit).toBeUndefined();
    expect(state.memo!.order.extras).toEqual({
      note: 'kept',
      deposit_address: ATTACKER,
      provider_order_id: 'sb-sell-1',
      provider_status: 'AWAITING_DEPOSIT',
    });
  });

  it('refuses a create answer whose deposit the network rules refused: no deposit shown, the order flagged', () => {
    const { state, effects } = sellState({}, { valid: false, reason: 'bad checksum' } as never);
    expect(state.memo!.order.status).toBe('created');
    expect(state.memo!.order.deposit).toBeUndefined();
    expect(state.memo!.integrityAlert).toBe('deposit_refused');
    expect(effects.reviews[0]?.[0]).toBe('report_refused');
  });

  it('refuses a deposit that was not checked at all', () => {
    const effects = recorder();
    const state = new SellOrderState({ input, effects: effects.effects });
    state.created(created);
    expect(state.memo!.order.deposit).toBeUndefined();
    expect(state.memo!.integrityAlert).toBe('deposit_refused');
  });
});

describe('SellOrderState: the deposit address never changes', () => {
  it.each([
    ['another address', { address: ATTACKER }],
    ['a memo added', { memo: '12345' }],
    ['another network', { network: 'polygon' }],
  ])('refuses a report naming %s, raises the alert, and the order does not move', (_name, change) => {
    const { state, effects } = sellState();
    const sequence = state.memo!.sequence;
    const moved = state.apply(report({ deposit: { ...deposit, ...change } }), { depositCheck: { valid: true } });
    expect(moved).toBe(false);
    expect(state.memo!.order.deposit!.address).toBe(DEPOSIT);
    expect(state.memo!.order.deposit!.memo).toBeUndefined();
    expect(state.memo!.order.status).toBe('waiting_for_deposit');
    expect(state.memo!.sequence).toBe(sequence);
    expect(state.memo!.integrityAlert).toBe('deposit_refused');
    expect(effects.attributes).toContainEqual([{ key: expect.objectContaining({ name: 'IntegrityAlert' }), value: 'deposit_refused' }]);
    expect(effects.reviews.some(([reason, key]) => reason === 'report_refused' && key.startsWith('deposit_refused:'))).toBe(true);
  });

  it('takes the same address spelt with another EVM checksum casing, and moves the order', () => {
    const { state } = sellState();
    expect(state.apply(report({ deposit: { ...deposit, address: DEPOSIT.toLowerCase() } }))).toBe(true);
    expect(state.memo!.order.deposit!.address).toBe(DEPOSIT);
    expect(state.memo!.integrityAlert).toBeUndefined();
  });

  it('refuses a report from another provider, or about another provider order, with any deposit', () => {
    const { state } = sellState({ deposit: undefined });
    expect(state.apply(report({ providerCode: 'moonpay', deposit }), { depositCheck: { valid: true } })).toBe(false);
    expect(state.apply(report({ providerOrderId: 'sb-sell-2', deposit }), { depositCheck: { valid: true } })).toBe(false);
    expect(state.memo!.order.deposit).toBeUndefined();
    expect(state.memo!.integrityAlert).toBe('report_refused');
  });

  it('a deposit learnt after creation is pinned by its first checked report, shown without a status change', () => {
    const { state, effects } = sellState({ deposit: undefined });
    const before = effects.memos.length;
    expect(state.depositToCheck(report({ status: 'waiting_for_deposit', deposit }))).toEqual(deposit);
    expect(state.apply(report({ status: 'waiting_for_deposit', deposit }), { depositCheck: { valid: true } })).toBe(false);
    expect(state.memo!.order.deposit!.address).toBe(DEPOSIT);
    expect(effects.memos.length).toBe(before + 1);
    expect(state.depositToCheck(report({ deposit }))).toBeUndefined();
  });

  it('a replayed report is applied once', () => {
    const { state } = sellState();
    expect(state.apply(report({ eventId: 'e1' }))).toBe(true);
    expect(state.apply(report({ eventId: 'e1', status: 'processing' }))).toBe(false);
    expect(state.memo!.order.status).toBe('deposit_received');
  });
});

describe('SellOrderState: figures and statuses', () => {
  it('a different crypto amount received and payout move the order with discrepancies', () => {
    const { state, effects } = sellState();
    state.apply(report({ reported: { cryptoAmount: '0.4', fiatAmount: '1160.00', fiatCurrency: EUR, cryptoCurrency: ETH } }));
    const order = state.memo!.order;
    expect(order.from_amount).toBe('0.4');
    expect(order.to_amount).toBe('1160.00');
    expect(order.discrepancies).toEqual([
      { field: 'from_amount', ordered: '0.500000000000000000', reported: '0.4' },
      { field: 'to_amount', ordered: '1450.00', reported: '1160.00' },
    ]);
    expect(state.memo!.integrityAlert).toBe('payment_differs');
    expect(effects.reviews.map(([reason]) => reason)).toContain('payment_differs');
  });

  it('a payout in another fiat currency is shown; another crypto currency is refused', () => {
    const { state } = sellState();
    state.apply(report({ reported: { fiatCurrency: USD } }));
    expect(state.memo!.order.to_currency).toBe(USD);
    expect(state.apply(report({ status: 'complete', reported: { cryptoCurrency: 13 } }))).toBe(false);
    expect(state.memo!.order.status).toBe('deposit_received');
  });

  it('a refund address other than the order’s is refused', () => {
    const { state } = sellState();
    expect(state.apply(report({ reported: { refundWalletAddress: ATTACKER } }))).toBe(false);
  });

  it('walks to complete and never back', () => {
    const { state } = sellState();
    state.apply(report());
    state.apply(report({ status: 'processing', providerStatus: 'PAYOUT_PENDING' }));
    state.apply(report({ status: 'complete', providerStatus: 'COMPLETED', transactionHash: '0xabc' }));
    expect(state.apply(report({ status: 'waiting_for_deposit' }))).toBe(false);
    expect(state.memo!.order).toMatchObject({ status: 'complete', transaction_hash: '0xabc' });
    expect(state.outbox.map((n) => n.order.status)).toEqual([
      'created',
      'waiting_for_deposit',
      'deposit_received',
      'processing',
      'complete',
    ]);
  });

  it('expires at the end of the deposit window, and a late deposit revives it', () => {
    const { state, effects } = sellState();
    effects.setNow(START + HOUR);
    state.expireIfNoDeposit();
    expect(state.memo!.order.status).toBe('waiting_for_deposit');
    effects.setNow(START + 2 * HOUR);
    state.expireIfNoDeposit();
    expect(state.memo!.order.status).toBe('expired');
    expect(state.graceEnd(HOUR)).toBe(START + 3 * HOUR);
    expect(state.apply(report())).toBe(true);
    expect(state.graceEnd(HOUR)).toBe(Infinity);
  });

  it('a provider deadline later than the window is kept; an earlier one does not shorten it', () => {
    const later = new Date(START + 5 * HOUR).toISOString();
    expect(sellState({ deposit: { ...deposit, expiresAt: later } }).state.depositDeadline()).toBe(START + 5 * HOUR);
    const earlier = new Date(START + HOUR).toISOString();
    expect(sellState({ deposit: { ...deposit, expiresAt: earlier } }).state.depositDeadline()).toBe(START + 2 * HOUR);
  });

  it('failed carries its reason, and a refund may follow', () => {
    const { state } = sellState();
    state.apply(report());
    state.apply(report({ status: 'failed', providerStatus: 'PAYOUT_FAILED', failureReason: 'card_declined' }));
    expect(state.memo!.order.failure_reason).toBe('card_declined');
    state.apply(report({ status: 'refunded', providerStatus: 'REFUNDED' }));
    expect(state.memo!.order.status).toBe('refunded');
    expect(state.memo!.order.failure_reason).toBeUndefined();
  });
});

describe("the integrator's deposit confirmation", () => {
  const HASH = `0x${'ab'.repeat(32)}`;
  const OTHER = `0x${'cd'.repeat(32)}`;

  test('taken while the order shows its deposit and waits for it; shown once confirmed, without a webhook', () => {
    const { state, effects } = sellState();
    expect(state.depositConfirmationRefusal(HASH, undefined)).toBeUndefined();
    const sequence = state.memo!.sequence;
    const outbox = state.outbox.length;
    effects.setNow(START + 60_000);
    state.depositConfirmed(HASH);
    expect(state.memo!.order.deposit_confirmation).toEqual({
      transaction_hash: HASH,
      confirmed_at: new Date(START + 60_000).toISOString(),
    });
    expect(effects.memos.at(-1)!.order.deposit_confirmation?.transaction_hash).toBe(HASH);
    expect(state.memo!.order.status).toBe('waiting_for_deposit');
    expect([state.memo!.sequence, state.outbox.length]).toEqual([sequence, outbox]);
    // The provider's own hash is its word alone: the confirmation does not set it.
    expect(state.memo!.order.transaction_hash).toBeUndefined();
  });

  test('one transaction per order: the same again is taken, another refused, also while the first is being passed on', () => {
    const { state } = sellState();
    expect(state.depositConfirmationRefusal(OTHER, HASH)).toMatchObject({ type: 'deposit_already_confirmed' });
    expect(state.depositConfirmationRefusal(HASH, HASH)).toBeUndefined();
    state.depositConfirmed(HASH);
    expect(state.depositConfirmationRefusal(HASH, undefined)).toBeUndefined();
    expect(state.depositConfirmationRefusal(OTHER, undefined)).toMatchObject({ type: 'deposit_already_confirmed' });
    state.depositConfirmed(OTHER);
    expect(state.memo!.order.deposit_confirmation?.transaction_hash).toBe(HASH);
  });

  test('refused before the order shows a deposit, and once it no longer waits for one', () => {
    const { state } = sellState({ deposit: undefined, status: 'created' });
    expect(state.depositConfirmationRefusal(HASH, undefined)).toEqual({
      type: 'deposit_not_awaited',
      message: 'the order shows no deposit address yet',
    });
    const shown = sellState().state;
    shown.apply(report());
    expect(shown.memo!.order.status).toBe('deposit_received');
    expect(shown.depositConfirmationRefusal(HASH, undefined)).toEqual({
      type: 'deposit_not_awaited',
      message: 'the order is deposit_received, not waiting for its deposit',
    });
  });

  test('a later report keeps the confirmation; the confirmation survives the walk to complete', () => {
    const { state } = sellState();
    state.depositConfirmed(HASH);
    state.apply(report({ transactionHash: OTHER }));
    state.apply(report({ status: 'complete', providerStatus: 'COMPLETED', eventId: 'e2' }));
    expect(state.memo!.order).toMatchObject({
      status: 'complete',
      transaction_hash: OTHER,
      deposit_confirmation: { transaction_hash: HASH },
    });
  });
});
