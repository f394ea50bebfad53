import type { RunEvidence } from './invariants';
import { seconds, table } from './report';

/**
 * How long each fault took to heal: from the fault (an outage's: from when it ended)
 * to the first order created after it (a create sent after that moment and answered 2xx) and to
 * the first status change the integrator was told of after it; with the answers other than 2xx
 * (but the refusals made on purpose) while it lasted.
 */
export function healingTable({ faults, answers, webhooks, records }: RunEvidence): string {
  const providerOf = new Map(records.map((r) => [r.plan.draft.external_order_id, r.plan.provider]));
  const orderProvider = new Map(records.filter((r) => r.orderId).map((r) => [r.orderId!, r.plan.provider]));
  const rows = faults.map((fault) => {
    const from = fault.healsFromEnd ? fault.endedAt : fault.at;
    const ours = (ext: string) => !fault.provider || providerOf.get(ext) === fault.provider;
    const created = answers
      .filter((a) => a.kind === 'create' && a.status >= 200 && a.status < 300 && a.sentAt >= from && ours(a.externalOrderId))
      .map((a) => a.answeredAt);
    const changed = webhooks
      .filter((w) => w.receivedAt >= from && w.body?.data?.status !== 'created')
      .filter((w) => !fault.provider || orderProvider.get(w.body.data.id) === fault.provider)
      .map((w) => w.receivedAt);
    const window = answers.filter((a) => a.sentAt >= fault.at && a.sentAt <= (created.length ? Math.min(...created) : fault.endedAt));
    const bad = new Map<string, number>();
    for (const a of window.filter((x) => (x.status < 200 || x.status >= 300) && x.code !== 'invalid_wallet_address')) {
      const key = `${a.status || 'none'}${a.code ? ` ${a.code}` : ''}`;
      bad.set(key, (bad.get(key) ?? 0) + 1);
    }
    return [
      fault.name,
      fault.skipped ? `skipped: ${fault.skipped}` : fault.error ? `error: ${fault.error}` : seconds(fault.endedAt - fault.at),
      created.length ? seconds(Math.min(...created) - from) : 'never',
      changed.length ? seconds(Math.min(...changed) - from) : 'never',
      [...bad].map(([k, n]) => `${n}x ${k}`).join(', ') || '-',
    ];
  });
  return table(['fault', 'took', 'first order created', 'first status change', 'answers other than 2xx until healed'], rows);
}

/** Answers by call kind, status and problem code. */
export function answersTable({ answers }: RunEvidence, acceptable: (a: RunEvidence['answers'][number]) => string | undefined): string {
  const counts = new Map<string, { n: number; verdict: string }>();
  for (const a of answers) {
    const key = `${a.kind}\t${a.status || 'no answer'}\t${a.code ?? ''}\t${a.retryAfter === undefined ? '' : 'yes'}`;
    const entry = counts.get(key) ?? { n: 0, verdict: acceptable(a) ?? 'UNEXPECTED' };
    entry.n++;
    if (!acceptable(a)) entry.verdict = 'UNEXPECTED';
    counts.set(key, entry);
  }
  const rows = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([key, { n, verdict }]) => [...key.split('\t'), n, verdict]);
  return table(['call', 'status', 'code', 'Retry-After', 'count', 'verdict'], rows);
}
