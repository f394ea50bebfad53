import { driveOrder, type DriverOptions, type OrderRecord } from './order-driver';
import { planOrder } from './order-plan';
import type { Stopper } from './stopper';

export interface LoadOptions extends Omit<DriverOptions, 'sleep'> {
  runId: string;
  /** Orders started per second. */
  ratePerSecond: number;
  /** No order starts after this long, nor after `maxOrders`. */
  durationMs: number;
  maxOrders: number;
  stopper: Stopper;
  log: (line: string) => void;
}

/** Starts planned orders at a steady rate, each driven on its own, and resolves with every order's record once all are done. */
export async function runLoad(options: LoadOptions): Promise<OrderRecord[]> {
  const { stopper } = options;
  const started = Date.now();
  const running: Promise<OrderRecord>[] = [];
  for (let index = 0; index < options.maxOrders; index++) {
    await stopper.until(started + (index * 1000) / options.ratePerSecond);
    if (stopper.isStopped || Date.now() - started > options.durationMs) break;
    const plan = planOrder(options.runId, index);
    running.push(
      driveOrder(plan, { ...options, sleep: stopper.sleep }).catch((err: unknown) => ({
        plan,
        createAttempts: 0,
        saw503: false,
        error: `driver crashed: ${(err as Error).stack ?? String(err)}`,
      })),
    );
    if (index % 30 === 29) options.log(`load: ${index + 1} orders started`);
  }
  options.log(`load: ${running.length} orders started; waiting for their drivers`);
  return Promise.all(running);
}
