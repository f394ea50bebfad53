import { canSellTransition, type SellOrderStatus } from '../../src/domain/sell-order-status';
import type { SellWebhookEvent } from '../../src/providers/sell-types';

/** Each status of a sell walk, from `created`, moves the order as the sell transition table allows. */
export function expectLegalSellWalk(events: readonly Pick<SellWebhookEvent, 'status'>[]): void {
  let from: SellOrderStatus = 'created';
  for (const { status } of events) {
    if (status !== from) expect([from, status, canSellTransition(from, status)]).toEqual([from, status, true]);
    from = status;
  }
}
