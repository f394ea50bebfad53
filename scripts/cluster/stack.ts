import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';

/** deploy/stack.json: the versions and settings `npm run cluster` and docker-compose.yml share. */
export const STACK_FILE = resolve(__dirname, '..', '..', 'deploy', 'stack.json');

const port = z.number().int().min(1).max(65535);

export const StackSchema = z.object({
  versions: z.object({
    postgresql: z.string(),
    temporal: z.string(),
    temporalUi: z.string(),
    temporalAdminTools: z.string(),
    redis: z.string(),
    haproxy: z.string(),
    prometheus: z.string(),
    /** Compose only: Grafana is not packaged by Debian, so the cluster ships its dashboard without running it. */
    grafana: z.string(),
  }),
  temporal: z.object({
    namespace: z.string(),
    retentionHours: z.number().int().positive(),
    historyShards: z.number().int().min(1),
    taskQueue: z.string(),
    database: z.string(),
    visibilityDatabase: z.string(),
    user: z.string(),
    /** docker-compose's database password (a demo on a private network); npm run cluster makes its own. */
    demoPassword: z.string(),
  }),
  replicas: z.object({ api: z.number().int().min(1), worker: z.number().int().min(1) }),
  brokerEnv: z.record(z.string(), z.string()),
  ports: z.object({
    loadBalancer: port,
    apiFirst: port,
    simulators: port,
    temporalFrontend: port,
    temporalFrontendHttp: port,
    temporalHistory: port,
    temporalMatching: port,
    temporalWorker: port,
    temporalMembershipFirst: port,
    temporalMetrics: port,
    temporalUi: port,
    redis: port,
    postgresql: port,
    prometheus: port,
    apiMetricsFirst: port,
    workerMetricsFirst: port,
    temporalSdkMetricsFirst: port,
  }),
  prometheus: z.object({ scrapeIntervalSeconds: z.number().int().positive(), retentionDays: z.number().int().positive() }),
});

export type Stack = z.infer<typeof StackSchema>;
export type StackPorts = Stack['ports'];

export function readStack(file = STACK_FILE): Stack {
  return StackSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** The ports of one cluster: the stack's layout moved by `offset` so two clusters can run side by side. */
export function clusterPorts(stack: Stack, offset = 0): StackPorts {
  return Object.fromEntries(Object.entries(stack.ports).map(([name, value]) => [name, value + offset])) as StackPorts;
}
