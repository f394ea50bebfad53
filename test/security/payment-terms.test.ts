/**
 * Attack: the customer pays a different amount, in a different currency, or to a different wallet
 * than the order says (an edited widget URL: Ramp's is unsigned, Mercuryo's signature covers only
 * the address, IP and id). Each provider's simulator pays what its switch says and reports it in its
 * own format, through real HTTP and a real Temporal dev server.
 * - Another wallet: no report of that payment moves the order.
 * - Another amount or currency: the order moves, but shows the provider's figures and the
 *   difference, and is flagged for the operator; never a silent `complete` at the ordered amount.
 */
import { callApi } from '../helpers/http';
import { BTC_ADDRESS, checkout, draftOrder, EUR, GBP, offerThenOrder, USD, waitForStatus, type OrderDraft } from '../helpers/orders';
import { refusedReports, searchAttributes } from '../helpers/provider-events';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { useTestStack } from '../helpers/stack';

/** A valid Bitcoin address that is not the order's. */
const OTHER_BTC_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

const started = useTestStack();

afterEach(() => {
  for (const simulator of started.stack.simulators.simulators.values())
    Object.assign(simulator.faults, { paidFiatAmount: '', paidFiatCurrency: '', paidWalletAddress: '' });
});

const PROVIDERS: { code: string; draft: () => OrderDraft }[] = [
  { code: 'sandbox', draft: () => draftOrder({ ip: '127.0.0.1' }) },
  ...JOURNEYS.map((journey) => ({ code: journey.code, draft: () => journeyOrder(journey) })),
];

async function paidOrder(code: string, draft: OrderDraft, paid: Record<string, string>) {
  expect(draft.wallet_address).toBe(BTC_ADDRESS);
  const created = await offerThenOrder(started.stack.apiUrl, draft);
  expect(created.status).toBe(200);
  Object.assign(started.stack.simulators.get(code).faults, paid);
  await fetch(created.body.redirect_url);
  expect((await checkout(created.body.redirect_url, 'pay')).status).toBe(200);
  return created.body as { id: string };
}

describe.each(PROVIDERS)('$code', ({ code, draft }) => {
  // Every report naming the other wallet is refused. Mercuryo's payment leg names no wallet, so its
  // order may show the payment taken (`processing`), but the delivery to another wallet never completes it.
  const unmoved = code === 'mercuryo' ? ['created', 'pending', 'processing'] : ['created', 'pending'];

  test('a payment to another wallet never moves the order', async () => {
    const order = await paidOrder(code, draft(), { paidWalletAddress: OTHER_BTC_ADDRESS });
    const memo = await refusedReports(started.env.client, order.id);
    expect(unmoved).toContain(memo.order.status);
    // Every later report (webhooks and polls, every 0.5 s here) names the other wallet too.
    await new Promise((r) => setTimeout(r, 3000));
    const status = await callApi(started.stack.apiUrl, `/api/on_ramp/orders/${code}?code=${order.id}`);
    expect(unmoved).toContain(status.body.status);
    expect(status.body.extras).not.toHaveProperty('transaction_hash');
    expect(status.body.wallet_address).toBe(BTC_ADDRESS);
    expect((await searchAttributes(started.env.client, order.id)).IntegrityAlert).toBe('report_refused');
  });

  test('a payment of another amount completes only with the paid amount and the difference shown', async () => {
    const ordered = draft();
    const order = await paidOrder(code, ordered, { paidFiatAmount: '10.00' });
    const done = await waitForStatus(started.stack.apiUrl, code, order.id, 'complete');
    expect(done.from_amount).toMatch(/^10(\.0+)?$/);
    expect(done.discrepancies).toEqual([{ field: 'from_amount', ordered: '100.00', reported: done.from_amount }]);
    expect((await searchAttributes(started.env.client, order.id)).IntegrityAlert).toBe('payment_differs');
  });

  test('a payment in another fiat currency completes only with that currency and the difference shown', async () => {
    const ordered = draft();
    const other = ordered.from_currency === EUR ? 'GBP' : 'EUR';
    const otherId = other === 'EUR' ? EUR : GBP;
    expect([USD, GBP, EUR]).toContain(ordered.from_currency);
    const order = await paidOrder(code, ordered, { paidFiatCurrency: other });
    const done = await waitForStatus(started.stack.apiUrl, code, order.id, 'complete');
    expect(done.from_currency).toBe(otherId);
    expect(done.discrepancies).toEqual([{ field: 'from_currency', ordered: String(ordered.from_currency), reported: String(otherId) }]);
    expect((await searchAttributes(started.env.client, order.id)).IntegrityAlert).toBe('payment_differs');
  });
});
