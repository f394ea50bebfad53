import type { SimulatedOrder } from '../../src/simulators/kit/simulated-orders';
import type { ReceivedWebhook } from '../helpers/integrator-receiver';
import type { BrokerAnswer } from './broker-client';
import type { FaultRecord } from './fault-schedule';
import { followedOrders, plannedStatus, type FinalState } from './final-state';
import type { OrderRecord } from './order-driver';

/** One invariant: whether it held, a one-line summary, and what broke it. */
export interface Check {
  name: string;
  ok: boolean;
  summary: string;
  failures: string[];
}

export interface RunEvidence {
  records: OrderRecord[];
  finals: Map<string, FinalState>;
  /** Every simulated provider's orders, by provider code. */
  providerOrders: Map<string, SimulatedOrder[]>;
  webhooks: ReceivedWebhook[];
  answers: BrokerAnswer[];
  faults: FaultRecord[];
}

/**
 * A 503 counts as an outage's answer from its fault until this long after the fault ended (a
 * process's restart back-off, readiness and the integrator's Retry-After wait; every fault of the
 * rehearsal healed within about 2 s of its end).
 */
export const OUTAGE_MARGIN_MS = 15_000;

/** The problem an outage may answer with: a provider's fault its provider_unavailable, any process's service_unavailable. */
function outageCode(fault: FaultRecord): string {
  return fault.provider ? 'provider_unavailable' : 'service_unavailable';
}

const check = (name: string, summary: string, failures: string[]): Check => ({ name, ok: failures.length === 0, summary, failures });

/** Every acknowledged order reached its planned status, with exactly one provider order; the refused ones were refused as planned. */
export function checkOrders({ records, finals, providerOrders }: RunEvidence): Check {
  const failures: string[] = [];
  const followed = followedOrders(records);
  const byReference = new Map<string, SimulatedOrder[]>();
  for (const orders of providerOrders.values())
    for (const o of orders) if (o.reference) byReference.set(o.reference, [...(byReference.get(o.reference) ?? []), o]);
  let reached = 0;
  for (const record of followed) {
    const id = record.orderId!;
    const final = finals.get(id);
    const label = `${record.plan.provider} ${record.plan.draft.external_order_id} (${id}, webhooks ${record.plan.webhooks})`;
    if (final?.status === plannedStatus(record)) reached++;
    else
      failures.push(
        `${label}: ${final?.status ?? 'never read'} instead of ${plannedStatus(record)}${final?.problem ? `, last answer ${final.problem}` : ''}`,
      );
    const atProvider = byReference.get(id) ?? [];
    if (atProvider.length !== 1)
      failures.push(`${label}: ${atProvider.length} provider orders (${atProvider.map((o) => o.id).join(', ')})`);
    if (record.checkout && (record.checkout.page >= 300 || record.checkout.action >= 300)) {
      failures.push(`${label}: customer's page answered ${record.checkout.page}/${record.checkout.action} ${record.checkout.detail ?? ''}`);
    }
  }
  const refused = records.filter((r) => r.plan.outcome === 'rejected' && r.refusedWith !== undefined);
  for (const r of refused)
    if (r.refusedWith !== 'invalid_wallet_address') failures.push(`${r.plan.draft.external_order_id}: refused with ${r.refusedWith}`);
  for (const r of records) if (r.error) failures.push(`${r.plan.provider} ${r.plan.draft.external_order_id}: ${r.error}`);
  const noOffer = records.filter((r) => r.noOffer).length;
  return check(
    'orders reach their planned status, one provider order each',
    `${reached}/${followed.length} acknowledged orders final as planned; ${refused.length} refused on purpose; ${noOffer} never offered`,
    failures,
  );
}

/** One order's verified, acknowledged webhooks in arrival order: sequences 1..n (duplicates aside, each identical to its first). */
export function sequenceOf(id: string, arrived: readonly ReceivedWebhook[], label: string) {
  const failures: string[] = [];
  const seen = new Map<number, ReceivedWebhook>();
  let duplicates = 0;
  let expected = 1;
  for (const w of arrived) {
    const sequence = w.body.data.sequence;
    const first = seen.get(sequence);
    if (first) {
      duplicates++;
      if (JSON.stringify(first.body.data) !== JSON.stringify(w.body.data))
        failures.push(`${id}: sequence ${sequence} arrived twice with different data`);
      continue;
    }
    if (sequence !== expected) failures.push(`${id}: sequence ${sequence} arrived where ${expected} was due (${label})`);
    seen.set(sequence, w);
    expected = Math.max(expected, sequence) + 1;
  }
  return { failures, duplicates, seen, last: seen.get(Math.max(0, ...seen.keys())) };
}

/** The webhooks of `id` that verified and that the integrator acknowledged, in arrival order. */
export const deliveredTo = (webhooks: readonly ReceivedWebhook[], id: string) =>
  webhooks.filter((w) => w.body?.data?.id === id && w.verified && w.answered >= 200 && w.answered < 300);

/** Every integrator webhook verified; per order, sequences 1..n in arrival order (duplicates aside), the last one the final status. */
export function checkWebhooks({ records, finals, webhooks }: RunEvidence): Check {
  const failures: string[] = [];
  const unverified = webhooks.filter((w) => !w.verified);
  for (const w of unverified.slice(0, 5)) failures.push(`webhook ${w.webhookId} failed verification`);
  if (unverified.length > 5) failures.push(`... ${unverified.length - 5} more unverified`);
  let duplicates = 0;
  const followed = followedOrders(records);
  for (const record of followed) {
    const id = record.orderId!;
    const sequence = sequenceOf(id, deliveredTo(webhooks, id), `${record.plan.provider}, webhooks ${record.plan.webhooks}`);
    failures.push(...sequence.failures);
    duplicates += sequence.duplicates;
    const { last } = sequence;
    const final = finals.get(id)?.status;
    if (!last) failures.push(`${id}: no webhook at all`);
    else if (last.body.data.status !== plannedStatus(record) || last.body.data.status !== final) {
      failures.push(`${id}: last webhook says ${last.body.data.status}, the API ${final}, planned ${plannedStatus(record)}`);
    }
    if (last && last.body.data.kind !== undefined)
      failures.push(`${id}: a buy order's webhook carries kind ${String(last.body.data.kind)}`);
  }
  return check(
    'integrator webhooks verified, in sequence, ending at the final status',
    `${webhooks.filter((w) => w.body?.data?.kind === undefined).length} deliveries for ${followed.length} orders, ${unverified.length} unverified, ${duplicates} duplicates`,
    failures,
  );
}

/** Why an answer is acceptable, or undefined when it is not. */
export function acceptable(answer: BrokerAnswer, records: OrderRecord[], faults: FaultRecord[]): string | undefined {
  if (answer.status >= 200 && answer.status < 300) return '2xx';
  const during = (f: FaultRecord) => answer.sentAt >= f.at - 1000 && answer.sentAt <= f.endedAt + OUTAGE_MARGIN_MS;
  if (answer.kind === 'create' && answer.status === 422 && answer.code === 'invalid_wallet_address') {
    const record = records.find((r) => r.plan.draft.external_order_id === answer.externalOrderId);
    if (record?.plan.outcome === 'rejected') return 'refused on purpose';
  }
  if (answer.status === 503 && answer.retryAfter !== undefined && faults.some((f) => during(f) && answer.code === outageCode(f)))
    return '503 with Retry-After in an outage';
  if (
    (answer.kind === 'create' || answer.kind === 'sell_create') &&
    answer.code === 'offer_expired' &&
    faults.some((f) => f.name.includes('redis') && during(f))
  ) {
    return 'offer lost with Redis (offered again)';
  }
  return undefined;
}

/** No answer but 2xx, the refusals the run caused on purpose, and 503 with Retry-After during an outage. */
export function checkAnswers({ records, answers, faults }: RunEvidence): Check {
  const failures: string[] = [];
  for (const a of answers) {
    if (acceptable(a, records, faults)) continue;
    failures.push(
      `${a.kind} ${a.externalOrderId} at ${new Date(a.sentAt).toISOString()}: ${a.status || 'no answer'} ${a.code ?? ''}` +
        `${a.retryAfter ? ` Retry-After ${a.retryAfter}` : ''} ${a.detail ?? ''}`.trimEnd(),
    );
  }
  return check('no unexpected HTTP answer', `${answers.length} answers, ${failures.length} unexpected`, failures);
}

/** A create repeated after its 503 returned the same order as the create that succeeded. */
export function checkRepeats({ records }: RunEvidence): Check {
  const after503 = records.filter((r) => r.saw503 && r.orderId !== undefined);
  const failures = after503
    .filter((r) => r.repeatedId !== r.orderId)
    .map((r) => `${r.plan.draft.external_order_id}: created as ${r.orderId}, repeated as ${r.repeatedId ?? 'no order'}`);
  return check('a create repeated after a 503 returns the same order', `${after503.length} orders created after a 503`, failures);
}

export function allChecks(evidence: RunEvidence): Check[] {
  return [checkOrders(evidence), checkWebhooks(evidence), checkAnswers(evidence), checkRepeats(evidence)];
}
