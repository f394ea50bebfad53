import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { ensureSearchAttributes } from '../../src/temporal/search-attributes';
import { TEMPORAL_DYNAMIC_CONFIG_FILE } from '../lib/temporal-dynamic-config';
import type { Stack, StackPorts } from './stack';

const run = promisify(execFile);

/** The server's static configuration (the model: config/development-postgres12.yaml of the server module). */
export function temporalServerConfig(stack: Stack, ports: StackPorts, dynamicConfigFile: string, password: string): string {
  const { temporal } = stack;
  const store = (database: string, maxConns: number) => `      sql:
        pluginName: postgres12
        databaseName: ${database}
        connectAddr: "127.0.0.1:${ports.postgresql}"
        connectProtocol: tcp
        user: ${temporal.user}
        password: ${password}
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: 1h`;
  const service = (grpcPort: number, membershipPort: number, extra = '') => `    rpc:
      grpcPort: ${grpcPort}
      membershipPort: ${membershipPort}
      bindOnLocalHost: true${extra}`;
  const m = ports.temporalMembershipFirst;
  return `# Written by scripts/cluster/temporal.ts from deploy/stack.json; rewritten on every start.
log:
  stdout: true
  level: warn

persistence:
  defaultStore: default
  # PostgreSQL 12+ visibility is advanced visibility: custom search attributes and list filters.
  visibilityStore: visibility
  numHistoryShards: ${temporal.historyShards}
  datastores:
    default:
${store(temporal.database, 20)}
    visibility:
${store(temporal.visibilityDatabase, 10)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
  metrics:
    prometheus:
      framework: tally
      timerType: histogram
      listenAddress: "127.0.0.1:${ports.temporalMetrics}"

services:
  frontend:
${service(ports.temporalFrontend, m, `\n      httpPort: ${ports.temporalFrontendHttp}`)}
  history:
${service(ports.temporalHistory, m + 1)}
  matching:
${service(ports.temporalMatching, m + 2)}
  worker:
${service(ports.temporalWorker, m + 6)}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: "127.0.0.1:${ports.temporalFrontend}"

dcRedirectionPolicy:
  policy: noop

dynamicConfigClient:
  filepath: ${dynamicConfigFile}
  pollInterval: 10s
`;
}

/** The Web UI server's configuration. */
export function temporalUiConfig(ports: StackPorts, namespace: string): string {
  return `# Written by scripts/cluster/temporal.ts.
temporalGrpcAddress: "127.0.0.1:${ports.temporalFrontend}"
host: 127.0.0.1
port: ${ports.temporalUi}
enableUi: true
defaultNamespace: ${namespace}
cors:
  allowOrigins:
    - "http://localhost:${ports.temporalUi}"
    - "http://127.0.0.1:${ports.temporalUi}"
refreshInterval: 0s
notifyOnNewVersion: false
`;
}

/** Writes the server's and the UI's configuration folders under `root`; returns their roots. */
export function writeTemporalConfigs(root: string, stack: Stack, ports: StackPorts, password: string): { server: string; ui: string } {
  const server = join(root, 'temporal');
  const ui = join(root, 'temporal-ui');
  mkdirSync(join(server, 'config', 'dynamicconfig'), { recursive: true });
  mkdirSync(join(ui, 'config'), { recursive: true });
  const dynamicConfigFile = join(server, 'config', 'dynamicconfig', 'cluster.yaml');
  // It holds the database password.
  writeFileSync(join(server, 'config', 'cluster.yaml'), temporalServerConfig(stack, ports, dynamicConfigFile, password), { mode: 0o600 });
  copyFileSync(TEMPORAL_DYNAMIC_CONFIG_FILE, dynamicConfigFile);
  writeFileSync(join(ui, 'config', 'cluster.yaml'), temporalUiConfig(ports, stack.temporal.namespace));
  return { server, ui };
}

/**
 * Creates the two databases and their schemas with the server's own SQL tool, and brings an existing
 * schema up to this server version's. Every step is idempotent: create-database and setup-schema leave
 * what exists alone, update-schema applies only the versions missing.
 */
export async function setUpTemporalSchemas(kit: string, stack: Stack, ports: StackPorts, password: string): Promise<void> {
  const tool = join(kit, 'bin', 'temporal-sql-tool');
  const connection = ['--plugin', 'postgres12', '--ep', '127.0.0.1', '--port', String(ports.postgresql)];
  const auth = ['--user', stack.temporal.user];
  for (const [database, schema] of [
    [stack.temporal.database, 'temporal'],
    [stack.temporal.visibilityDatabase, 'visibility'],
  ] as const) {
    const args = [...connection, ...auth, '--db', database];
    // The password through the tool's environment variable, not its command line.
    const options = { env: { ...process.env, SQL_PASSWORD: password } };
    await run(tool, [...args, 'create-database'], options);
    await run(tool, [...args, 'setup-schema', '-v', '0.0'], options);
    await run(tool, [...args, 'update-schema', '-d', join(kit, 'schema', 'postgresql', 'v12', schema, 'versioned')], options);
  }
}

/** Registers the namespace (with the stack's retention) when missing, then the broker's search attributes. */
export async function setUpNamespace(address: string, stack: Stack, say: (line: string) => void): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const { namespace, retentionHours } = stack.temporal;
    try {
      await connection.workflowService.describeNamespace({ namespace });
    } catch (err) {
      if ((err as { code?: number }).code !== 5) throw err; // NOT_FOUND
      await connection.workflowService.registerNamespace({
        namespace,
        workflowExecutionRetentionPeriod: msToTs(retentionHours * 3_600_000),
      });
      say(`registered namespace ${namespace} (retention ${retentionHours} h)`);
    }
    const client = new Client({ connection, namespace });
    const added = await retryUntil(() => ensureSearchAttributes(client, namespace), 60_000);
    if (added.length > 0) say(`registered search attributes: ${added.join(', ')}`);
    // The frontend caches search attributes: wait until a query naming all of them is accepted.
    const query = [
      ...['OrderStatus', 'ProviderCode', 'ExternalOrderId', 'IntegratorId'].map((name) => `${name}='x'`),
      "OrderRequestedAt < '2000-01-01T00:00:00Z'",
    ].join(' AND ');
    await retryUntil(() => client.workflow.count(query), 60_000);
  } finally {
    await connection.close();
  }
}

async function retryUntil<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** True once the frontend answers. */
export async function temporalAnswers(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    await connection.workflowService.getSystemInfo({});
    return true;
  } finally {
    await connection.close();
  }
}
