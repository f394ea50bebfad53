import type { Cluster, ClusterProcessName } from '../../scripts/cluster/types';
import type { SimulatorControl } from './simulator-control';
import type { Stopper } from './stopper';

/** One fault of the run, as it happened. */
export interface FaultRecord {
  name: string;
  /** When the fault was injected (epoch ms). */
  at: number;
  /** When the run stopped injecting it: the provider healthy again, PostgreSQL restarted (epoch ms). */
  endedAt: number;
  /** For a provider's fault: its code (its orders measure the healing). */
  provider?: string;
  /** An outage that lasts (a provider down, Temporal stopped): its healing counts from its end. */
  healsFromEnd?: boolean;
  skipped?: string;
  error?: string;
}

/** What the schedule does to the cluster's processes. */
export type FaultTarget = Pick<Cluster, 'kill' | 'restart' | 'stopProcess' | 'startProcess'>;

export interface FaultScheduleOptions {
  /** Undefined where processes cannot be killed (the local stack): their faults are skipped. */
  cluster?: FaultTarget;
  simulators: SimulatorControl;
  /** The provider made slow, then down. */
  provider: string;
  stopper: Stopper;
  /** Multiplies every time of the schedule (a quick try: 0.25). */
  timeScale?: number;
  log: (line: string) => void;
}

/** Seconds from the start of the load; each fault has time to heal before the next. */
export const SCHEDULE = {
  killWorker: 20,
  killApi: 65,
  killTemporal: 110,
  /** Temporal down this long: order creates answer 503 with Retry-After, and the integrator repeats them. */
  stopTemporal: 140,
  temporalDownSeconds: 20,
  killRedis: 195,
  restartPostgresql: 240,
  providerSlow: 295,
  /** Slow this long (latency above the broker's 10 s provider timeout), then down this long, then healthy. */
  slowSeconds: 40,
  downSeconds: 60,
  providerLatencyMs: 12_000,
} as const;

/** When the last fault has ended, in seconds from the start: the load goes on a while after it to measure the healing. */
export const LAST_FAULT_ENDS_S = SCHEDULE.providerSlow + SCHEDULE.slowSeconds + SCHEDULE.downSeconds;

/** Plays the schedule from `startedAt`; resolves with what was done once the last fault has ended (or the run stopped). */
export async function runFaultSchedule(startedAt: number, options: FaultScheduleOptions): Promise<FaultRecord[]> {
  const { stopper, log } = options;
  const records: FaultRecord[] = [];
  const at = (seconds: number) => stopper.until(startedAt + seconds * 1000 * (options.timeScale ?? 1));

  const processFault = async (seconds: number, name: string, act: (cluster: FaultTarget) => Promise<void>, healsFromEnd = false) => {
    await at(seconds);
    if (stopper.isStopped) return;
    const record: FaultRecord = { name, at: Date.now(), endedAt: Date.now(), ...(healsFromEnd ? { healsFromEnd } : {}) };
    records.push(record);
    if (!options.cluster) {
      record.skipped = 'no cluster (local stack)';
      return;
    }
    log(`fault: ${name}`);
    try {
      await act(options.cluster);
    } catch (err) {
      record.error = (err as Error).message;
      log(`fault: ${name} failed: ${record.error}`);
    }
    record.endedAt = Date.now();
  };
  const kill = (name: ClusterProcessName) => (cluster: Pick<Cluster, 'kill'>) => cluster.kill(name, 'SIGKILL');

  await processFault(SCHEDULE.killWorker, 'kill -9 worker-1', kill('worker-1'));
  await processFault(SCHEDULE.killApi, 'kill -9 api-1', kill('api-1'));
  await processFault(SCHEDULE.killTemporal, 'kill -9 temporal', kill('temporal'));
  await processFault(
    SCHEDULE.stopTemporal,
    `temporal down ${SCHEDULE.temporalDownSeconds} s`,
    async (cluster) => {
      await cluster.stopProcess('temporal');
      await at(SCHEDULE.stopTemporal + SCHEDULE.temporalDownSeconds);
      await cluster.startProcess('temporal');
    },
    true,
  );
  await processFault(SCHEDULE.killRedis, 'kill -9 redis', kill('redis'));
  await processFault(SCHEDULE.restartPostgresql, 'restart postgresql', (cluster) => cluster.restart('postgresql'));

  await at(SCHEDULE.providerSlow);
  if (stopper.isStopped) return records;
  const { provider, simulators } = options;
  const name = `${provider} slow ${SCHEDULE.slowSeconds} s (+${SCHEDULE.providerLatencyMs / 1000} s), down ${SCHEDULE.downSeconds} s`;
  const record: FaultRecord = { name, at: Date.now(), endedAt: Date.now(), provider, healsFromEnd: true };
  records.push(record);
  try {
    log(`fault: ${provider} slow`);
    await simulators.setFaults(provider, { latencyMs: SCHEDULE.providerLatencyMs });
    await at(SCHEDULE.providerSlow + SCHEDULE.slowSeconds);
    log(`fault: ${provider} down`);
    await simulators.setFaults(provider, { latencyMs: 0, errorRate: 1 });
    await at(LAST_FAULT_ENDS_S);
  } catch (err) {
    record.error = (err as Error).message;
  } finally {
    // Healthy again, also when the run stops early.
    await simulators.setFaults(provider, { latencyMs: 0, errorRate: 0 }).catch((err: unknown) => {
      record.error = `could not make ${provider} healthy: ${(err as Error).message}`;
    });
    record.endedAt = Date.now();
    log(`fault: ${provider} healthy again`);
  }
  return records;
}
