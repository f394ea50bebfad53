import { driveSell, type SellRecord } from './sell-driver';
import type { DriverOptions } from './order-driver';
import type { PlannedSell } from './sell-plan';
import type { Stopper } from './stopper';

export interface SellLoadOptions extends Omit<DriverOptions, 'sleep'> {
  /** The sell orders start evenly over this long, so that the faults find some under way. */
  spreadMs: number;
  stopper: Stopper;
  log: (line: string) => void;
}

/** Starts the planned sell orders evenly over the load, each driven on its own; resolves with every record once all are done. */
export async function runSellLoad(plans: readonly PlannedSell[], options: SellLoadOptions): Promise<SellRecord[]> {
  const { stopper } = options;
  const started = Date.now();
  const running: Promise<SellRecord>[] = [];
  for (const [i, plan] of plans.entries()) {
    await stopper.until(started + (i * options.spreadMs) / plans.length);
    if (stopper.isStopped) break;
    running.push(
      driveSell(plan, { ...options, sleep: stopper.sleep }).catch((err: unknown) => ({
        plan,
        createAttempts: 0,
        saw503: false,
        deposits: [],
        error: `driver crashed: ${(err as Error).stack ?? String(err)}`,
      })),
    );
  }
  options.log(`sell load: ${running.length} sell orders started; waiting for their drivers`);
  return Promise.all(running);
}
