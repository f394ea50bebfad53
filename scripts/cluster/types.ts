/** What `npm run cluster` runs and what the fault-injection run and the benchmark control. */

/** Every supervised process, by name. APIs and workers are numbered from 1. */
export type ClusterProcessName =
  | 'postgresql'
  | 'temporal'
  | 'temporal-ui'
  | 'redis'
  | 'simulators'
  | 'load-balancer'
  | 'prometheus'
  | `api-${number}`
  | `worker-${number}`;

export interface ClusterAddresses {
  /** The load balancer in front of the API processes: what integrators call. */
  api: string;
  /** Each API process directly, in order (api-1, api-2, ...). */
  apis: string[];
  /** The provider simulators' host (each provider under /<code>). */
  simulators: string;
  /** Temporal frontend gRPC address, host:port. */
  temporal: string;
  /** Temporal Web UI. */
  ui: string;
  redis: string;
  /** postgresql://... for psql. */
  postgresql: string;
  /** Prometheus, scraping every process, with the broker's alert rules (absent where none runs). */
  prometheus?: string;
}

export interface ClusterProcessInfo {
  name: ClusterProcessName;
  pid: number | undefined;
  /** Times the supervisor restarted it after an exit it did not ask for. */
  restarts: number;
  /** CPU time used so far by the current and earlier incarnations, in ms (user + system). */
  cpuMs: number;
  /** The most resident memory seen so far, in MB (the main process; PostgreSQL's backends not included). */
  peakRssMb: number;
}

export interface StartClusterOptions {
  /** Data directory (PostgreSQL data, logs, generated configs); reused by a second start. */
  dataDir: string;
  /** How many API processes and workers (default 2 each). */
  apis?: number;
  workers?: number;
  /** Integrators file for the API and worker processes (default: a generated one with the demo integrator). */
  integratorsFile?: string;
  /** Extra environment for the API and worker processes (e.g. ORDER_POLL_INITIAL_SECONDS). */
  brokerEnv?: Record<string, string>;
  /** Added to every port of the default layout, so two clusters can run side by side. */
  portOffset?: number;
  log?: (line: string) => void;
}

export interface Cluster {
  readonly addresses: ClusterAddresses;
  processes(): ClusterProcessInfo[];
  /** Sends the signal (default SIGKILL) to the process; the supervisor restarts it as a process manager would. */
  kill(name: ClusterProcessName, signal?: NodeJS.Signals): Promise<void>;
  /** A clean stop and start (what an operator's restart does), resolved once it is ready again. */
  restart(name: ClusterProcessName): Promise<void>;
  /** Stops a process and keeps it stopped until start(name). */
  stopProcess(name: ClusterProcessName): Promise<void>;
  startProcess(name: ClusterProcessName): Promise<void>;
  /** Resolves once the process answers its readiness check. */
  ready(name: ClusterProcessName, timeoutMs?: number): Promise<void>;
  /** Stops everything, in reverse order of start. */
  stop(): Promise<void>;
}
