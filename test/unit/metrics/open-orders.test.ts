/**
 * The open-orders counter reads only what it counts (the OrderStatus and ProviderCode search
 * attributes and the start time) from Temporal visibility, page by page: it never decodes an
 * order's memo, so a memo encrypted under a retired key does not fail the count and no customer
 * data is decrypted for it.
 */
import { Client, type Connection } from '@temporalio/client';
import { msNumberToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import pino from 'pino';
import { openOrders, openOrdersCountErrors } from '../../../src/metrics/metrics';
import { encryptingDataConverter, EncryptionKeysSchema } from '../../../src/temporal/codec';
import { TEST_ENCRYPTION_KEYS } from '../../helpers/config';
import { OpenOrdersCounter } from '../../../src/worker/open-orders';

type ListRequest = temporal.api.workflowservice.v1.IListWorkflowExecutionsRequest;

const NOW = Date.parse('2026-11-25T12:00:00Z');
const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const keyword = (value: string) => ({ metadata: { encoding: Buffer.from('json/plain'), type: Buffer.from('Keyword') }, data: json(value) });

/** A visibility record as the server sends it (encoded and decoded: int64 fields are Longs, as over gRPC). */
function execution(i: number, status: string, provider: string, ageMs: number): temporal.api.workflow.v1.IWorkflowExecutionInfo {
  const { WorkflowExecutionInfo } = temporal.api.workflow.v1;
  return WorkflowExecutionInfo.decode(WorkflowExecutionInfo.encode(info(i, status, provider, ageMs)).finish());
}

function info(i: number, status: string, provider: string, ageMs: number): temporal.api.workflow.v1.IWorkflowExecutionInfo {
  return {
    execution: { workflowId: `order-${i}`, runId: `run-${i}` },
    type: { name: 'orderWorkflow' },
    startTime: msNumberToTs(NOW - ageMs),
    status: temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING,
    searchAttributes: { indexedFields: { OrderStatus: keyword(status), ProviderCode: keyword(provider) } },
    // Encrypted under a key this worker no longer has: decoding it would fail.
    memo: {
      fields: {
        order: {
          metadata: { encoding: Buffer.from('binary/encrypted'), 'encryption-key-id': Buffer.from('retired') },
          data: Buffer.alloc(64, 1),
        },
      },
    },
  };
}

function fakeClient(pages: ReturnType<typeof execution>[][]) {
  const requests: ListRequest[] = [];
  const listWorkflowExecutions = (request: ListRequest) => {
    requests.push(request);
    const index = request.nextPageToken && request.nextPageToken.length > 0 ? Number(Buffer.from(request.nextPageToken).toString()) : 0;
    const nextPageToken = index + 1 < pages.length ? Buffer.from(String(index + 1)) : Buffer.alloc(0);
    return Promise.resolve({ executions: pages[index] ?? [], nextPageToken });
  };
  const connection = {
    workflowService: { listWorkflowExecutions },
    withDeadline: <R>(_deadline: unknown, fn: () => Promise<R>) => fn(),
    withMetadata: <R>(_metadata: unknown, fn: () => Promise<R>) => fn(),
    withAbortSignal: <R>(_signal: unknown, fn: () => Promise<R>) => fn(),
    plugins: [],
  } as unknown as Connection;
  const client = new Client({
    connection,
    namespace: 'onramp',
    dataConverter: encryptingDataConverter(EncryptionKeysSchema.parse(TEST_ENCRYPTION_KEYS)),
  });
  return { client, requests };
}

const gauge = async () =>
  Object.fromEntries(
    (await openOrders.get()).values.map((v) => [`${v.labels.status}/${v.labels.provider}/${v.labels.age_bucket}`, v.value]),
  );

test('counts by status, provider and age over every page, without decoding a memo', async () => {
  const { client, requests } = fakeClient([
    [execution(1, 'pending', 'sandbox', 60_000), execution(2, 'pending', 'sandbox', 120_000), execution(3, 'hold', 'ramp', 3 * 86_400_000)],
    [execution(4, 'pending', 'sandbox', 30 * 60_000)],
    [execution(5, 'processing', 'banxa', 7 * 86_400_000)],
  ]);
  const errorsBefore = (await openOrdersCountErrors.get()).values[0]?.value ?? 0;
  await new OpenOrdersCounter({ client, logger: pino({ level: 'silent' }), intervalMs: 60_000, now: () => NOW }).countOnce();
  expect((await openOrdersCountErrors.get()).values[0]?.value ?? 0).toBe(errorsBefore);
  expect(await gauge()).toEqual({
    'pending/sandbox/under_1h': 3,
    'hold/ramp/2d_to_5d': 1,
    'processing/banxa/over_5d': 1,
  });
  expect(requests).toHaveLength(3);
  expect(requests[0]).toEqual(
    expect.objectContaining({
      namespace: 'onramp',
      query: "WorkflowType = 'orderWorkflow' AND ExecutionStatus = 'Running'",
      pageSize: 1000,
    }),
  );
});

test('stops at maxOrders', async () => {
  const { client } = fakeClient([
    [execution(1, 'pending', 'sandbox', 1000), execution(2, 'pending', 'sandbox', 1000)],
    [execution(3, 'pending', 'sandbox', 1000)],
  ]);
  await new OpenOrdersCounter({ client, logger: pino({ level: 'silent' }), intervalMs: 60_000, now: () => NOW, maxOrders: 2 }).countOnce();
  expect(await gauge()).toEqual({ 'pending/sandbox/under_1h': 2 });
});
