import { Client, Connection, type DataConverter } from '@temporalio/client';
import { connectionOptions, type TemporalEndpoint } from './connection-options';
import { tracingClientInterceptors } from './tracing';

export interface TemporalTarget extends TemporalEndpoint {
  namespace: string;
}

/** A client whose connection is opened on first use, so the API starts even while Temporal is down. */
export function createTemporalClient(target: TemporalTarget, dataConverter?: DataConverter): Client {
  const connection = Connection.lazy(connectionOptions(target));
  return new Client({ connection, namespace: target.namespace, dataConverter, interceptors: tracingClientInterceptors() });
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
