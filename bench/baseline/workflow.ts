/**
 * The baseline of `npm run bench:orders`: the order lifecycle's Temporal shape with nothing else.
 * Started by update-with-start; two activities before the update returns; one notification
 * activity after creation and one per signal; each wait for a signal under a timer, as the order
 * workflow's polling waits are. No HTTP, no business logic.
 */
import { condition, defineSignal, defineUpdate, proxyActivities, setHandler } from '@temporalio/workflow';
import type { BaselineActivities } from './activities';

export const baselineCreateUpdate = defineUpdate<string>('create');
export const baselineEventSignal = defineSignal<[string]>('event');

const { step } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '30 seconds' });

export function baselineWorkflow(signalsExpected: number): Promise<number> {
  return orderShaped(step, ['validate', 'create'], signalsExpected);
}

/**
 * The order's shape, whatever runs its steps: the `beforeAnswer` steps, then the create update's
 * answer, one notification, and one notification per signal until `signalsExpected` came.
 */
export async function orderShaped(
  run: (name: string) => Promise<unknown>,
  beforeAnswer: string[],
  signalsExpected: number,
): Promise<number> {
  let created = false;
  const inbox: string[] = [];
  setHandler(baselineCreateUpdate, async () => {
    await condition(() => created);
    return 'created';
  });
  setHandler(baselineEventSignal, (event) => void inbox.push(event));

  for (const name of beforeAnswer) await run(name);
  created = true;
  await run('notify');
  let seen = 0;
  while (seen < signalsExpected) {
    if (await condition(() => inbox.length > 0, '30 seconds')) {
      for (const event of inbox.splice(0)) {
        seen++;
        await run(`notify ${event}`);
      }
    }
  }
  return seen;
}
