/**
 * Attack: a report about a provider order made before the broker's order is taken as its payment.
 * Providers find orders by our id forever, so an order id used again after retention deleted the
 * old order finds the old, paid purchase; a body or lookup answer kept from an older purchase does
 * the same. Each provider's simulator makes the provider order a day old (the `providerOrderAgeMs`
 * switch) and reports it in its own format, through real HTTP and a real Temporal dev server: the
 * order refuses every such report and is flagged, never `complete`.
 */
import { callApi } from '../helpers/http';
import { checkout, draftOrder, offerThenOrder, type OrderDraft } from '../helpers/orders';
import { refusedReports, searchAttributes } from '../helpers/provider-events';
import { JOURNEYS, journeyOrder } from '../helpers/provider-journeys';
import { useTestStack } from '../helpers/stack';

const DAY_MS = 24 * 60 * 60 * 1000;

const started = useTestStack();

afterEach(() => {
  for (const simulator of started.stack.simulators.simulators.values())
    Object.assign(simulator.faults, { providerOrderAgeMs: 0, dropWebhooks: false });
});

/**
 * Paybis's webhook carries no creation time: its poll reports it. (Its webhook names the request the
 * broker made for this very order, pinned from creation, so one about an older request is refused
 * as another provider order.)
 */
const POLLED_ONLY = new Set(['paybis']);

/**
 * Paybis's lookup reads its transaction list from the order's creation (less the 10 minutes of clock
 * skew): a transaction dated a day before is not in it, so the order never hears of it at all.
 */
const OUTSIDE_THE_LOOKUP = new Set(['paybis']);

const PROVIDERS: { code: string; draft: () => OrderDraft }[] = [
  { code: 'sandbox', draft: () => draftOrder({ ip: '127.0.0.1' }) },
  ...JOURNEYS.map((journey) => ({ code: journey.code, draft: () => journeyOrder(journey) })),
];

describe.each(PROVIDERS)('$code', ({ code, draft }) => {
  test('a paid provider order made a day before the order never moves it', async () => {
    // Set before the order: Banxa and Paybis make their provider order when the broker's is created.
    Object.assign(started.stack.simulators.get(code).faults, { providerOrderAgeMs: DAY_MS, dropWebhooks: POLLED_ONLY.has(code) });
    const created = await offerThenOrder(started.stack.apiUrl, draft());
    expect(created.status).toBe(200);
    const order = created.body as { id: string; redirect_url: string };
    await fetch(order.redirect_url);
    expect((await checkout(order.redirect_url, 'pay')).status).toBe(200);

    if (!OUTSIDE_THE_LOOKUP.has(code)) {
      const memo = await refusedReports(started.env.client, order.id);
      expect(memo.order.status).toBe('created');
    }
    // Every later report (webhooks, and polls every 0.5 s here) is about the same old provider order.
    await new Promise((r) => setTimeout(r, 3000));
    const status = await callApi(started.stack.apiUrl, `/api/on_ramp/orders/${code}?code=${order.id}`);
    expect(status.body.status).toBe('created');
    expect(status.body.extras).not.toHaveProperty('transaction_hash');
    expect((await searchAttributes(started.env.client, order.id)).IntegrityAlert).toBe(
      OUTSIDE_THE_LOOKUP.has(code) ? undefined : 'report_refused',
    );
  });
});
