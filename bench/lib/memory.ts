/**
 * Memory figures of a benchmark server child: the bytes its JavaScript heap allocates (read inside
 * the child, answered over IPC), and its resident set size (read from the parent, Linux /proc).
 *
 * Node 20 has no counter of allocated bytes, but every byte allocated is either still in the heap or
 * was freed by a garbage collection since: allocated = (used heap now - used heap at the start) + the
 * sum over every collection of (used before - used after). `v8.GCProfiler` gives each collection's
 * used heap before and after; its cost is a heap-statistics read per collection (a few a second).
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { GCProfiler, getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

export interface AllocationReading {
  /** Bytes allocated on the JS heap since the meter started. */
  allocatedBytes: number;
  /** Collections since the meter started, and their summed pauses (GCProfiler's cost), in ms. */
  gcs: number;
  gcMs: number;
  /** The heap now: its size (reserved by V8 for objects), the part in use, and the new (young) space's size, in bytes. */
  heapBytes: number;
  heapUsedBytes: number;
  newSpaceBytes: number;
  /** The used heap right after the last full (mark-compact) collection: what was live then; NaN before the first. */
  liveAfterMajorBytes: number;
  /** The most that was live after any full collection since the meter started; NaN before the first. */
  maxLiveAfterMajorBytes: number;
}

export class AllocationMeter {
  private readonly profiler = new GCProfiler();
  private readonly startUsed = getHeapStatistics().used_heap_size;
  private freed = 0;
  private gcs = 0;
  private gcMs = 0;
  private liveAfterMajor = NaN;
  private maxLiveAfterMajor = NaN;

  constructor() {
    this.profiler.start();
  }

  read(): AllocationReading {
    // stop() hands over the collections since start(); start() again at once (no collection can run between).
    const result = this.profiler.stop();
    this.profiler.start();
    for (const gc of result?.statistics ?? []) {
      this.freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
      this.gcs += 1;
      this.gcMs += gc.cost / 1000;
      if (gc.gcType === 'MarkSweepCompact') {
        this.liveAfterMajor = gc.afterGC.heapStatistics.usedHeapSize;
        this.maxLiveAfterMajor = Math.max(this.liveAfterMajor, Number.isNaN(this.maxLiveAfterMajor) ? 0 : this.maxLiveAfterMajor);
      }
    }
    const heap = getHeapStatistics();
    return {
      allocatedBytes: heap.used_heap_size - this.startUsed + this.freed,
      gcs: this.gcs,
      gcMs: this.gcMs,
      heapBytes: heap.total_heap_size,
      heapUsedBytes: heap.used_heap_size,
      newSpaceBytes: getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? NaN,
      liveAfterMajorBytes: this.liveAfterMajor,
      maxLiveAfterMajorBytes: this.maxLiveAfterMajor,
    };
  }
}

/** A process's resident set size now (VmRSS) and at its highest so far (VmHWM), in bytes; NaN off Linux. */
export function rssOf(pid: number): { rssBytes: number; peakBytes: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
    return { rssBytes: kb('VmRSS'), peakBytes: kb('VmHWM') };
  } catch {
    return { rssBytes: NaN, peakBytes: NaN };
  }
}

/** One line of a sampling heap profile: where the bytes were allocated, and how many (an estimate from the samples). */
export interface AllocationSite {
  bytes: number;
  site: string;
}

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

/**
 * V8's sampling heap profiler in this process (the inspector protocol), counting objects the
 * collector has already freed too: what a stretch of work allocates, by function, not what it keeps.
 * For finding where the bytes go (bench/offers-memory.ts), not for the benchmark's figures.
 */
export class HeapSampler {
  private readonly session = new Session();

  constructor() {
    this.session.connect();
  }

  private post<T>(method: string, params: object = {}): Promise<T> {
    return new Promise((resolve, reject) => this.session.post(method, params, (err, result) => (err ? reject(err) : resolve(result as T))));
  }

  async start(samplingInterval = 4096): Promise<void> {
    await this.post('HeapProfiler.enable');
    await this.post('HeapProfiler.startSampling', {
      samplingInterval,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  }

  /** The sampled bytes by function (name, file, line), largest first; and by file, with `byFile`. */
  async stop(byFile = false): Promise<AllocationSite[]> {
    const { profile } = await this.post<{ profile: { head: ProfileNode } }>('HeapProfiler.stopSampling');
    const sites = new Map<string, number>();
    const visit = (node: ProfileNode) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const file = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '~/');
      const key = byFile ? file || '(native)' : `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
      if (node.selfSize > 0) sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      node.children.forEach(visit);
    };
    visit(profile.head);
    return [...sites.entries()].map(([site, bytes]) => ({ site, bytes })).sort((a, b) => b.bytes - a.bytes);
  }
}
