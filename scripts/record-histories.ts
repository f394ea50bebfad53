/**
 * Re-records the current release's replay histories (test/replay/histories/<CURRENT_GENERATION>) from
 * real runs of every order path on a real Temporal dev server: `npm run test:replay:record`. Older
 * releases' folders are left as they are (docs/decisions.md, "Changing the workflow safely").
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { orderWorkflowId } from '../src/temporal/order-contract';
import { DEFAULT_DEV_WEBHOOK_SECRET } from '../src/config/env';
import { IntegratorReceiver } from '../test/helpers/integrator-receiver';
import {
  REJECTED_SCENARIO,
  SCENARIOS,
  SELL_SCENARIOS,
  startRejectedOrder,
  startScenarioOrder,
  startSellScenarioOrder,
  workflowRuns,
} from '../test/helpers/scenarios';
import { CURRENT_GENERATION, HISTORIES_DIR } from '../test/replay/generations';
import { startTestStack } from '../test/helpers/stack';
import { startTemporal } from '../test/helpers/temporal';
import { ensureTemporalCli } from './lib/temporal-cli';

const OUT = resolve(HISTORIES_DIR, CURRENT_GENERATION);
/**
 * `--sell-only`: records the sell order paths alone, beside the histories already there: a sell
 * path added after a release is recorded without re-recording the release's buy histories.
 */
const SELL_ONLY = process.argv.includes('--sell-only');
/** `--scenario=<name>` (with --sell-only): records that sell path alone. */
const ONLY_SCENARIO = process.argv.find((arg) => arg.startsWith('--scenario='))?.slice('--scenario='.length);

async function main(): Promise<void> {
  process.env.TEMPORAL_CLI_PATH ??= ensureTemporalCli();
  // A fresh folder: no run file of an earlier recording stays beside the new ones.
  if (!SELL_ONLY) rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const env = await startTemporal();
  // Orders notify an integrator endpoint, so the histories hold webhook deliveries too.
  const receiver = new IntegratorReceiver(DEFAULT_DEV_WEBHOOK_SECRET);
  const webhookUrl = await receiver.start();
  try {
    const save = async (name: string, orderId: string) => {
      const runs = await workflowRuns(env.client, orderId);
      for (const [index, runId] of runs.entries()) {
        const file = runs.length === 1 ? `${name}.json` : `${name}.run${index + 1}.json`;
        const history = await env.client.workflow.getHandle(orderWorkflowId(orderId), runId).fetchHistory();
        writeFileSync(resolve(OUT, file), `${historyToJSON(history)}\n`);
        process.stdout.write(`recorded ${file} (${history.events?.length ?? 0} events)\n`);
      }
    };
    for (const scenario of SELL_SCENARIOS.filter((s) => ONLY_SCENARIO === undefined || s.name === ONLY_SCENARIO)) {
      const stack = await startTestStack(env, { ...scenario.stack, env: { ONRAMP_WEBHOOK_URL: webhookUrl } });
      try {
        const res = await startSellScenarioOrder(stack, scenario.provider);
        if (res.status !== 200) throw new Error(`${scenario.name}: sell order not created (${res.status})`);
        const order = res.body as { id: string; redirect_url: string; extras: Record<string, unknown> };
        await scenario.run(stack, order, env.client);
        await save(scenario.name, order.id);
      } finally {
        await stack.stop();
      }
    }
    if (SELL_ONLY) return;
    for (const scenario of SCENARIOS) {
      const stack = await startTestStack(env, { ...scenario.stack, env: { ONRAMP_WEBHOOK_URL: webhookUrl } });
      try {
        scenario.prepare?.(receiver);
        const { res } = await startScenarioOrder(stack, scenario.walletAddress);
        if (res.status !== 200) throw new Error(`${scenario.name}: order not created (${res.status})`);
        const order = res.body as { id: string; redirect_url: string };
        await scenario.run(stack, order, env.client);
        await save(scenario.name, order.id);
      } finally {
        await stack.stop();
      }
    }
    const stack = await startTestStack(env, { env: { ONRAMP_WEBHOOK_URL: webhookUrl } });
    try {
      await save(REJECTED_SCENARIO.name, await startRejectedOrder(stack, env.client));
    } finally {
      await stack.stop();
    }
  } finally {
    await receiver.stop();
    await env.teardown();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
