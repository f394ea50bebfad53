import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { DEV_SANDBOX_WEBHOOK_SECRET } from '../../src/config';
import { getOrderQuery, orderWorkflowId, type OrderMemo } from '../../src/temporal/order-contract';
import { eventually } from './http';
import { workflowRuns } from './scenarios';
import { signedSandboxWebhook } from './webhooks';

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
export function signedSandboxEvent(
  orderId: string,
  order: Record<string, unknown> = {},
  secret = DEV_SANDBOX_WEBHOOK_SECRET,
): WebhookDelivery {
  const { body, signature } = signedSandboxWebhook(
    secret,
    { id: `sb_${randomUUID()}`, partner_order_id: orderId, status: 'COMPLETED', tx_hash: `0x${'ab'.repeat(32)}`, ...order },
    `evt_${randomUUID()}`,
  );
  return { query: '', headers: { 'sandbox-signature': signature }, body };
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

/** Every history event of every run of the order's workflow, oldest run first. */
export async function orderHistory(client: Client, orderId: string) {
  const events = [];
  for (const runId of await workflowRuns(client, orderId)) {
    const history = await client.workflow.getHandle(orderWorkflowId(orderId), runId).fetchHistory();
    events.push(...(history.events ?? []));
  }
  return events;
}
