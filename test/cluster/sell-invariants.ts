import type { SimulatedOrder } from '../../src/simulators/kit/simulated-orders';
import type { ReceivedWebhook } from '../helpers/integrator-receiver';
import type { FinalState } from './final-state';
import { deliveredTo, sequenceOf, type Check } from './invariants';
import { depositOf, type SellRecord, type ShownDeposit } from './sell-driver';
import { followedSells } from './sell-final-state';

export interface SellEvidence {
  sells: SellRecord[];
  sellFinals: Map<string, FinalState>;
  /** Every simulated provider's orders, by provider code (buys and sells). */
  providerOrders: Map<string, SimulatedOrder[]>;
  webhooks: ReceivedWebhook[];
}

const check = (name: string, summary: string, failures: string[]): Check => ({ name, ok: failures.length === 0, summary, failures });
const labelOf = (r: SellRecord) =>
  `${r.plan.provider} ${r.plan.draft.external_order_id} (${r.orderId ?? 'no order'}, webhooks ${r.plan.webhooks})`;

/** Every followed sell order reached its planned status with exactly one provider order; no driver gave up. */
export function checkSellOrders({ sells, sellFinals, providerOrders }: SellEvidence): Check {
  const failures: string[] = [];
  const followed = followedSells(sells);
  const atProvider = new Map<string, SimulatedOrder[]>();
  for (const [code, orders] of providerOrders)
    for (const o of orders)
      if (o.reference) atProvider.set(`${code} ${o.reference}`, [...(atProvider.get(`${code} ${o.reference}`) ?? []), o]);
  let reached = 0;
  for (const record of followed) {
    const id = record.orderId!;
    const final = sellFinals.get(id);
    if (final?.status === record.plan.outcome) reached++;
    else
      failures.push(
        `${labelOf(record)}: ${final?.status ?? 'never read'} instead of ${record.plan.outcome}${final?.problem ? `, last answer ${final.problem}` : ''}`,
      );
    const orders = atProvider.get(`${record.plan.provider} ${id}`) ?? [];
    if (orders.length !== 1) failures.push(`${labelOf(record)}: ${orders.length} provider orders (${orders.map((o) => o.id).join(', ')})`);
    if (record.checkout && (record.checkout.page >= 300 || record.checkout.action >= 300))
      failures.push(
        `${labelOf(record)}: checkout answered ${record.checkout.page}/${record.checkout.action} ${record.checkout.detail ?? ''}`,
      );
  }
  for (const r of sells) if (r.error) failures.push(`${labelOf(r)}: ${r.error}`);
  for (const r of sells.filter((x) => x.saw503 && x.orderId !== undefined && x.repeatedId !== x.orderId))
    failures.push(`${labelOf(r)}: created as ${r.orderId}, repeated after a 503 as ${r.repeatedId ?? 'no order'}`);
  const notPlayable = sells.filter((r) => r.notPlayable);
  const noOffer = sells.filter((r) => r.noOffer).length;
  return check(
    'sell orders reach their planned status, one provider order each',
    `${reached}/${followed.length} acknowledged sell orders final as planned; ${notPlayable.length} not playable at their simulator` +
      `${notPlayable.length ? ` (${notPlayable.map((r) => `${r.plan.provider} ${r.plan.outcome}`).join(', ')})` : ''}; ${noOffer} never offered`,
    failures,
  );
}

/**
 * Per sell order: webhooks verified, `kind: "off_ramp"`, sequences 1..n, the last one the final status;
 * and credited once: the payout (`complete`) under one sequence at most, nothing after it.
 */
export function checkSellWebhooks({ sells, sellFinals, webhooks }: SellEvidence): Check {
  const failures: string[] = [];
  let duplicates = 0;
  let deliveries = 0;
  const followed = followedSells(sells);
  for (const record of followed) {
    const id = record.orderId!;
    const mine = webhooks.filter((w) => w.body?.data?.id === id);
    deliveries += mine.length;
    for (const w of mine.filter((x) => !x.verified)) failures.push(`${id}: webhook ${w.webhookId} failed verification`);
    for (const w of mine.filter((x) => x.body.data.kind !== 'off_ramp'))
      failures.push(`${id}: webhook ${w.webhookId} has kind ${String(w.body.data.kind)}`);
    const sequence = sequenceOf(id, deliveredTo(webhooks, id), `${record.plan.provider}, webhooks ${record.plan.webhooks}`);
    failures.push(...sequence.failures);
    duplicates += sequence.duplicates;
    const completes = [...sequence.seen.values()].filter((w) => w.body.data.status === 'complete');
    if (completes.length > 1) failures.push(`${id}: complete under sequences ${completes.map((w) => w.body.data.sequence).join(', ')}`);
    const final = sellFinals.get(id)?.status;
    const { last } = sequence;
    if (!last) failures.push(`${id}: no webhook at all`);
    else if (last.body.data.status !== record.plan.outcome || last.body.data.status !== final)
      failures.push(`${id}: last webhook says ${last.body.data.status}, the API ${final}, planned ${record.plan.outcome}`);
    if (completes.length === 1 && last && last !== completes[0]) failures.push(`${id}: ${last.body.data.status} after complete`);
  }
  return check(
    'sell webhooks verified, kind off_ramp, in sequence, ending at the final status, credited once',
    `${deliveries} deliveries for ${followed.length} sell orders, ${duplicates} duplicates`,
    failures,
  );
}

const sameDeposit = (a: ShownDeposit, b: ShownDeposit) => a.address === b.address && a.memo === b.memo && a.network === b.network;
const depositText = (d: ShownDeposit) => `${d.address}${d.memo ? ` memo ${d.memo}` : ''} on ${d.network}`;

/** Once shown (create answer, status reads, webhooks), a sell order's deposit never changes. */
export function checkDeposits({ sells, webhooks }: SellEvidence): Check {
  const failures: string[] = [];
  let shown = 0;
  let sightings = 0;
  const acknowledged = sells.filter((r) => r.orderId !== undefined);
  for (const record of acknowledged) {
    const id = record.orderId!;
    const seen = [
      ...record.deposits,
      ...webhooks
        .filter((w) => w.body?.data?.id === id && w.verified)
        .flatMap((w) => {
          const deposit = depositOf(w.body.data);
          return deposit ? [{ where: `webhook sequence ${w.body.data.sequence}`, deposit }] : [];
        }),
    ];
    sightings += seen.length;
    const first = seen[0];
    if (!first) continue;
    shown++;
    for (const other of seen.filter((s) => !sameDeposit(s.deposit, first.deposit)))
      failures.push(
        `${labelOf(record)}: ${other.where} shows ${depositText(other.deposit)}, ${first.where} showed ${depositText(first.deposit)}`,
      );
  }
  return check(
    "a sell order's deposit address never changes once shown",
    `${shown}/${acknowledged.length} sell orders showed a deposit, ${sightings} sightings, all alike per order`,
    failures,
  );
}

export function sellChecks(evidence: SellEvidence): Check[] {
  return [checkSellOrders(evidence), checkSellWebhooks(evidence), checkDeposits(evidence)];
}
