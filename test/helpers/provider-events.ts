import { createHmac, randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { DEV_SANDBOX_WEBHOOK_SECRET } from '../../src/config';
import { getOrderQuery, orderWorkflowId, type OrderMemo } from '../../src/temporal/shared';
import { eventually } from './http';
import { workflowRuns } from './scenarios';

/** A webhook as it travels: the URL's query string (with its `?`), headers and the raw body. */
export interface WebhookDelivery {
  query: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * A `sandbox` provider event genuinely signed with the repository's development secret: what
 * anyone can make for a broker that runs the sandbox with its default secret.
 */
export function signedSandboxEvent(orderId: string, order: Record<string, unknown> = {}, secret = DEV_SANDBOX_WEBHOOK_SECRET): WebhookDelivery {
  const body = JSON.stringify({
    event_id: `evt_${randomUUID()}`,
    event_type: 'order.status_changed',
    order: {
      id: `sb_${randomUUID()}`,
      partner_order_id: orderId,
      status: 'COMPLETED',
      crypto_amount: '0.00100000',
      checkout_url: 'http://127.0.0.1:1/sandbox/checkout/x',
      tx_hash: `0x${'ab'.repeat(32)}`,
      updated_at: new Date().toISOString(),
      ...order,
    },
  });
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return { query: '', headers: { 'sandbox-signature': `t=${t},v1=${v1}` }, body };
}

/** Posts a provider webhook to the broker as the provider would. */
export async function postWebhook(apiUrl: string, providerCode: string, webhook: WebhookDelivery): Promise<Response> {
  return fetch(`${apiUrl}/api/webhooks/${providerCode}${webhook.query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...webhook.headers },
    body: webhook.body,
  });
}

/** The order's workflow state (the memo the API reads, with the operator's fields), from its running workflow. */
export async function orderMemo(client: Client, orderId: string): Promise<OrderMemo> {
  const memo = await client.workflow.getHandle(orderWorkflowId(orderId)).query(getOrderQuery);
  if (!memo) throw new Error(`order ${orderId} has no memo yet`);
  return memo;
}

/** Waits until the workflow has refused `count` provider reports in all; returns its memo then. */
export function refusedReports(client: Client, orderId: string, count = 1): Promise<OrderMemo> {
  return eventually(async () => {
    const memo = await orderMemo(client, orderId);
    return (memo.refusedReports ?? 0) >= count ? memo : undefined;
  }, `${count} refused report(s) on order ${orderId}`);
}

/** The order's search attributes as an operator queries them in the Web UI. */
export async function searchAttributes(client: Client, orderId: string): Promise<Record<string, unknown>> {
  const { searchAttributes: attributes } = await client.workflow.getHandle(orderWorkflowId(orderId)).describe();
  return Object.fromEntries(Object.entries(attributes).map(([key, values]) => [key, (values as unknown[])[0]]));
}

/** Events in the order's workflow histories, all runs together. */
export async function historyLength(client: Client, orderId: string): Promise<number> {
  let total = 0;
  for (const runId of await workflowRuns(client, orderId)) {
    const history = await client.workflow.getHandle(orderWorkflowId(orderId), runId).fetchHistory();
    total += history.events?.length ?? 0;
  }
  return total;
}
