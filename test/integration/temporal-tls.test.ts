import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { createLogger } from '../../src/logging';
import { createTemporalClient } from '../../src/temporal/connection';
import { connectWorker } from '../../src/worker/build';
import { testConfig } from '../helpers/config';
import { eventually } from '../helpers/http';
import { createTestCa } from '../helpers/pki';
import { startTemporal, workflowBundle } from '../helpers/temporal';
import { startTlsProxy, type TlsProxy } from '../helpers/tls-proxy';

/**
 * The API's client and the worker, configured only through the environment as in production, reach
 * the real Temporal dev server through a TLS-terminating proxy: with the right CA (and, where the
 * proxy asks for one, a client certificate of that CA) they work; otherwise the handshake is refused.
 */

const SERVER_NAME = 'temporal.test';
const logger = createLogger('silent', 'worker');

let temporal: TestWorkflowEnvironment;
let dir: string;
let tlsProxy: TlsProxy;
let mtlsProxy: TlsProxy;
const files = { ca: '', otherCa: '', cert: '', key: '', otherCert: '', otherKey: '', bundle: '' };

beforeAll(async () => {
  temporal = await startTemporal();
  dir = mkdtempSync(join(tmpdir(), 'temporal-tls-'));
  const ca = await createTestCa('Broker test CA');
  const otherCa = await createTestCa('Some other CA');
  const server = await ca.server(SERVER_NAME);
  const client = await ca.client('onramp-broker');
  const stranger = await otherCa.client('onramp-broker');
  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  Object.assign(files, {
    ca: write('ca.pem', ca.cert),
    otherCa: write('other-ca.pem', otherCa.cert),
    cert: write('client.pem', client.cert),
    key: write('client-key.pem', client.key),
    otherCert: write('stranger.pem', stranger.cert),
    otherKey: write('stranger-key.pem', stranger.key),
    bundle: write('workflow-bundle.js', (await workflowBundle()).code),
  });
  tlsProxy = await startTlsProxy({ target: temporal.address, server });
  mtlsProxy = await startTlsProxy({ target: temporal.address, server, clientCa: ca.cert });
}, 120_000);

afterAll(async () => {
  await tlsProxy?.close();
  await mtlsProxy?.close();
  await temporal?.teardown();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function configFor(proxy: TlsProxy, env: Record<string, string>) {
  return testConfig(
    {},
    { TEMPORAL_ADDRESS: proxy.address, TEMPORAL_TASK_QUEUE: `tls-${randomUUID()}`, WORKFLOW_BUNDLE_PATH: files.bundle, ...env },
  );
}

/** What the API does first with Temporal; the deadline bounds the SDK's retries of an unavailable server. */
function describeNamespace(client: Client) {
  return client.withDeadline(Date.now() + 5000, () => client.workflowService.describeNamespace({ namespace: 'default' }));
}

async function pollers(client: Client, taskQueue: string) {
  const { pollers } = await client.workflowService.describeTaskQueue({
    namespace: 'default',
    taskQueue: { name: taskQueue },
    taskQueueType: proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  });
  return pollers;
}

const mtls = () => ({
  TEMPORAL_TLS_CA_FILE: files.ca,
  TEMPORAL_TLS_CERT_FILE: files.cert,
  TEMPORAL_TLS_KEY_FILE: files.key,
  TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
});

describe.each([
  { name: 'mTLS with the right CA and a client certificate', proxy: () => mtlsProxy, env: mtls },
  {
    name: 'TLS with the right CA and an API key',
    proxy: () => tlsProxy,
    env: () => ({ TEMPORAL_TLS_CA_FILE: files.ca, TEMPORAL_TLS_SERVER_NAME: SERVER_NAME, TEMPORAL_API_KEY: 'cloud-api-key' }),
  },
])('$name', ({ proxy, env }) => {
  test('the API describes the namespace and the worker polls its task queue, both through the proxy', async () => {
    const config = configFor(proxy(), env());
    const client = createTemporalClient(config.temporal);
    await expect(describeNamespace(client)).resolves.toMatchObject({ namespaceInfo: { name: 'default' } });
    const { worker, close } = await connectWorker(config, logger);
    const running = worker.run();
    try {
      const polling = async () => ((await pollers(client, config.temporal.taskQueue)).length > 0 ? true : undefined);
      await eventually(polling, 'the worker polling its task queue', 10_000);
    } finally {
      worker.shutdown();
      await running;
      await close();
      await client.connection.close();
    }
  });
});

describe.each([
  { name: 'a CA other than the server’s', proxy: () => tlsProxy, env: () => ({ ...mtls(), TEMPORAL_TLS_CA_FILE: files.otherCa }) },
  {
    name: 'the right CA but no server name to check the certificate against',
    proxy: () => tlsProxy,
    env: () => ({ TEMPORAL_TLS_CA_FILE: files.ca }),
  },
  { name: 'no TLS settings at all', proxy: () => tlsProxy, env: () => ({}) },
  {
    name: 'no client certificate where mTLS is required',
    proxy: () => mtlsProxy,
    env: () => ({ TEMPORAL_TLS_CA_FILE: files.ca, TEMPORAL_TLS_SERVER_NAME: SERVER_NAME }),
  },
  {
    name: 'a client certificate of another CA where mTLS is required',
    proxy: () => mtlsProxy,
    env: () => ({ ...mtls(), TEMPORAL_TLS_CERT_FILE: files.otherCert, TEMPORAL_TLS_KEY_FILE: files.otherKey }),
  },
])('$name', ({ proxy, env }) => {
  test('neither the API nor the worker gets through the TLS handshake', async () => {
    const config = configFor(proxy(), env());
    const { refusedHandshakes } = proxy();
    const client = createTemporalClient(config.temporal);
    let refused = refusedHandshakes.length;
    try {
      await expect(describeNamespace(client)).rejects.toThrow();
    } finally {
      await client.connection.close();
    }
    expect(refusedHandshakes.length).toBeGreaterThan(refused);
    refused = refusedHandshakes.length;
    await expect(connectWorker(config, logger)).rejects.toThrow();
    expect(refusedHandshakes.length).toBeGreaterThan(refused);
  });
});
