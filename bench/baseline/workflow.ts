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

export async function baselineWorkflow(signalsExpected: number): Promise<number> {
  let created = false;
  const inbox: string[] = [];
  setHandler(baselineCreateUpdate, async () => {
    await condition(() => created);
    return 'created';
  });
  setHandler(baselineEventSignal, (event) => void inbox.push(event));

  await step('validate');
  await step('create');
  created = true;
  await step('notify');
  let seen = 0;
  while (seen < signalsExpected) {
    if (await condition(() => inbox.length > 0, '30 seconds')) {
      for (const event of inbox.splice(0)) {
        seen++;
        await step(`notify ${event}`);
      }
    }
  }
  return seen;
}
