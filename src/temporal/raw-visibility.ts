import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

/**
 * The visibility records matching `query`, a page of 1000 at a time, read straight from the workflow
 * service: memos are left as they are, never decoded, so no customer data is loaded and a memo under
 * a retired key does not fail the listing. Each page's call has `pageTimeoutMs` when given.
 */
export async function* rawExecutions(
  client: Client,
  query: string,
  pageTimeoutMs?: number,
): AsyncGenerator<temporal.api.workflow.v1.IWorkflowExecutionInfo> {
  let nextPageToken: Uint8Array = Buffer.alloc(0);
  for (;;) {
    const list = () =>
      client.workflowService.listWorkflowExecutions({ namespace: client.options.namespace, query, pageSize: 1000, nextPageToken });
    const page = pageTimeoutMs === undefined ? await list() : await client.withDeadline(Date.now() + pageTimeoutMs, list);
    yield* page.executions;
    if (!page.nextPageToken || page.nextPageToken.length === 0) return;
    nextPageToken = page.nextPageToken;
  }
}
