import { Client, Connection } from '@temporalio/client';

export interface TemporalTarget {
  address: string;
  namespace: string;
}

/** A client whose connection is opened on first use, so the API starts even while Temporal is down. */
export function createTemporalClient(target: TemporalTarget): Client {
  const connection = Connection.lazy({ address: target.address });
  return new Client({ connection, namespace: target.namespace });
}

/** True when the Temporal frontend answers within the deadline. */
export async function temporalReachable(client: Client, timeoutMs = 2000): Promise<boolean> {
  try {
    await client.withDeadline(Date.now() + timeoutMs, () => client.workflowService.getSystemInfo({}));
    return true;
  } catch {
    return false;
  }
}
