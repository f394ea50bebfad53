import { canSellTransition, isSellOrderStatus, isSellSettled } from '../../src/domain/sell-order-status';
import type { IntegratorReceiver } from '../helpers/integrator-receiver';
import type { BrokerClient } from './broker-client';
import type { FinalState } from './final-state';
import { noteDeposit, type SellRecord } from './sell-driver';
import type { Stopper } from './stopper';

/** The sell orders the API acknowledged whose planned action the provider's checkout took. */
export const followedSells = (records: readonly SellRecord[]) => records.filter((r) => r.orderId !== undefined && !r.notPlayable);

/**
 * Reads every followed sell order (GET /api/off_ramp/orders/<provider>?code=<id>) until it has reached
 * its planned status and the integrator has its webhook of it, or it can no longer get there, or
 * until `deadline`. Every deposit a read shows is noted on the record.
 */
export async function drainSells(
  records: readonly SellRecord[],
  client: BrokerClient,
  receiver: IntegratorReceiver,
  deadline: number,
  stopper: Stopper,
): Promise<Map<string, FinalState>> {
  const states = new Map<string, FinalState>();
  let open = followedSells(records);
  for (;;) {
    const next: SellRecord[] = [];
    for (let i = 0; i < open.length; i += 8) {
      await Promise.all(
        open.slice(i, i + 8).map(async (record) => {
          const id = record.orderId!;
          const planned = record.plan.outcome;
          const res = await client.call(
            'sell_status',
            record.plan.draft.external_order_id,
            `/api/off_ramp/orders/${record.plan.provider}?code=${id}`,
          );
          const state: FinalState =
            res.status === 200 ? { status: res.body.status } : { ...states.get(id), problem: `${res.status} ${res.body?.code ?? ''}` };
          if (res.status === 200) noteDeposit(record, `status read (${String(res.body.status)})`, res.body);
          states.set(id, state);
          const webhooked = receiver.delivered(id).some((w) => w.body.data.status === planned);
          const status = state.status;
          const wrongEnd = isSellOrderStatus(status) && isSellSettled(status) && status !== planned && !canSellTransition(status, planned);
          if (!wrongEnd && (status !== planned || !webhooked)) next.push(record);
        }),
      );
    }
    open = next;
    if (open.length === 0 || Date.now() > deadline || stopper.isStopped) return states;
    await stopper.sleep(3000);
  }
}
