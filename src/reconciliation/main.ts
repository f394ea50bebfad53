/**
 * `npm run reconcile -- <provider> <from> [<to>] [--wait]`: reconciles a provider's window now
 * (from and to: ISO 8601 dates or instants, UTC; `to` defaults to a day after `from`), or runs it
 * again when it was reconciled already; with `--wait`, prints the report when the run ends.
 * `npm run reconcile -- --list [<provider>] <from> [<to>]` lists the reconciliations of windows
 * starting in that range. Compiled into dist/ like the worker, so the production image runs it
 * too (docs/operations.md, "Reconciliation"). Exits 1 on a usage mistake or a failure.
 */
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../config';
import { encryptingDataConverter } from '../temporal/codec';
import { createTemporalClient } from '../temporal/connection';
import { listReconciliations, reconcileNow, reconciliationReport } from './reports';

const USAGE = [
  'usage: npm run reconcile -- <provider> <from> [<to>] [--wait]',
  '       npm run reconcile -- --list [<provider>] <from> [<to>]',
  '  <from>, <to>: ISO 8601 dates or instants (UTC); <to> defaults to a day after <from>',
].join('\n');

const DAY_MS = 86_400_000;
/** A provider code as the command line names one: a letter first, so that a date is never read as one. */
const PROVIDER_CODE = /^[a-z][a-z0-9_]{1,31}$/;
/** A date, or an instant with its zone: a time without one would be read in the local zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

class UsageError extends Error {}

function instant(text: string | undefined, name: string): number {
  const ms = text === undefined || !INSTANT.test(text) ? NaN : Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(ms)) throw new UsageError(`${name} is not an ISO 8601 date or an instant with its zone: ${text ?? '(missing)'}`);
  return ms;
}

interface Command {
  list: boolean;
  wait: boolean;
  providerCode?: string;
  fromMs: number;
  toMs: number;
}

export function parseCommand(args: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { list: { type: 'boolean' }, wait: { type: 'boolean' } } });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const positionals = [...parsed.positionals];
  const list = parsed.values.list === true;
  const providerCode = positionals[0] !== undefined && PROVIDER_CODE.test(positionals[0]) ? positionals.shift() : undefined;
  if (!list && providerCode === undefined) throw new UsageError('name the provider (its code, e.g. moonpay)');
  const fromMs = instant(positionals.shift(), '<from>');
  const toMs = positionals.length > 0 ? instant(positionals.shift(), '<to>') : fromMs + DAY_MS;
  if (positionals.length > 0) throw new UsageError(`unexpected ${positionals.join(' ')}`);
  if (!(fromMs < toMs)) throw new UsageError('<to> must come after <from>');
  return { list, wait: parsed.values.wait === true, ...(providerCode === undefined ? {} : { providerCode }), fromMs, toMs };
}

async function main(): Promise<number> {
  const command = parseCommand(process.argv.slice(2));
  const config = loadConfig();
  const client = createTemporalClient(config.temporal, encryptingDataConverter(config.encryption.keys, config.encryption));
  try {
    if (command.list) {
      const found = await listReconciliations(client, command);
      for (const r of found) {
        process.stdout.write(
          `${new Date(r.fromMs).toISOString()}  ${r.providerCode.padEnd(14)} ${r.status.padEnd(10)} ${r.kinds.join(',') || '(running)'}  ${r.workflowId}\n`,
        );
      }
      return 0;
    }
    const providerCode = command.providerCode!;
    const before = await reconciliationReport(client, providerCode, command.fromMs, command.toMs);
    const input = { providerCode, fromMs: command.fromMs, toMs: command.toMs, timings: config.reconciliation.timings };
    const workflowId = await reconcileNow(client, input, config.temporal.taskQueue);
    process.stdout.write(
      `reconciling ${providerCode} ${new Date(command.fromMs).toISOString()} to ${new Date(command.toMs).toISOString()}: ${workflowId}\n`,
    );
    if (!command.wait) return 0;
    const handle = client.workflow.getHandle(workflowId);
    for (;;) {
      const report = await reconciliationReport(client, providerCode, command.fromMs, command.toMs);
      // A report other than the one before the run was asked for (a new one, or the old one marked failed).
      if (report && (report.ranAtMs !== before?.ranAtMs || report.lastRunError !== before?.lastRunError)) {
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return report.lastRunError ? 1 : 0;
      }
      const { status } = await handle.describe();
      if (status.name !== 'RUNNING')
        throw new Error(`the reconciliation's workflow is ${status.name.toLowerCase()}: see ${workflowId} in the Web UI`);
      await sleep(2000);
    }
  } finally {
    await client.connection.close();
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      let message = err instanceof Error ? err.message : String(err);
      if (err instanceof UsageError) message = `${err.message}\n${USAGE}`;
      process.stderr.write(`reconcile: ${message}\n`);
      process.exit(1);
    },
  );
}
