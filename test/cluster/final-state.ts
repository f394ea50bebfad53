import { isOrderStatus, isSettled } from '../../src/domain/order-status';
import type { IntegratorReceiver } from '../helpers/integrator-receiver';
import type { BrokerClient } from './broker-client';
import type { OrderRecord } from './order-driver';
import { CHECKOUT } from './order-plan';
import type { Stopper } from './stopper';

/** An order's state as the integrator reads it at the end: GET /api/on_ramp/orders/<provider>?code=<id>. */
export interface FinalState {
  status?: string;
  /** The last answer when it was not 200. */
  problem?: string;
}

export const plannedStatus = (record: OrderRecord) => CHECKOUT[record.plan.outcome as keyof typeof CHECKOUT]?.status;

/** The orders the API acknowledged that have a planned final status. */
export const followedOrders = (records: OrderRecord[]) => records.filter((r) => r.orderId !== undefined && plannedStatus(r) !== undefined);

/**
 * Reads every acknowledged order until it has reached its planned status and the integrator has its
 * webhook of it, or until `deadline`: the drain at the end of the run.
 */
export async function drain(
  records: OrderRecord[],
  client: BrokerClient,
  receiver: IntegratorReceiver,
  deadline: number,
  stopper: Stopper,
): Promise<Map<string, FinalState>> {
  const states = new Map<string, FinalState>();
  let open = followedOrders(records);
  for (;;) {
    const next: OrderRecord[] = [];
    // A few at a time: the cluster shares two cores with this run.
    for (let i = 0; i < open.length; i += 8) {
      await Promise.all(
        open.slice(i, i + 8).map(async (record) => {
          const id = record.orderId!;
          const res = await client.call(
            'status',
            record.plan.draft.external_order_id,
            `/api/on_ramp/orders/${record.plan.provider}?code=${id}`,
          );
          const state: FinalState =
            res.status === 200 ? { status: res.body.status } : { ...states.get(id), problem: `${res.status} ${res.body?.code ?? ''}` };
          states.set(id, state);
          const webhooked = receiver.delivered(id).some((w) => w.body.data.status === plannedStatus(record));
          const wrongEnd = state.status !== plannedStatus(record) && isOrderStatus(state.status) && isSettled(state.status);
          if (!wrongEnd && (state.status !== plannedStatus(record) || !webhooked)) next.push(record);
        }),
      );
    }
    open = next;
    if (open.length === 0 || Date.now() > deadline || stopper.isStopped) return states;
    await stopper.sleep(3000);
  }
}
