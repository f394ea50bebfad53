/**
 * The floors of `npm run bench:orders` (bench/README.md): the least Temporal work an order needs.
 *
 * - `floorCreateWorkflow`: update-with-start of a workflow that runs no activity and answers the
 *   update at once, then ends: what any order creation through Temporal costs, with nothing else.
 * - `floorWorkflow`: a durable order with the least Temporal work: one provider call, one
 *   notification, then one notification per provider signal, every call a LOCAL activity (no-ops,
 *   as the baseline's), each wait for a signal under a timer (an order cannot wait on a webhook
 *   forever, it has to poll when none comes). Same update and signals as the baseline, so one
 *   driver runs both.
 */
import { condition, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { BaselineActivities } from './activities';
import { baselineCreateUpdate, orderShaped } from './workflow';

const { step } = proxyLocalActivities<BaselineActivities>({ startToCloseTimeout: '30 seconds' });

export async function floorCreateWorkflow(): Promise<string> {
  let answered = false;
  setHandler(baselineCreateUpdate, () => {
    answered = true;
    return 'created';
  });
  await condition(() => answered);
  return 'created';
}

export function floorWorkflow(signalsExpected: number): Promise<number> {
  return orderShaped(step, ['create'], signalsExpected);
}
