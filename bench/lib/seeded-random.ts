import { createHash } from 'node:crypto';

/**
 * A seeded source of uniform numbers in [0, 1) (mulberry32): the same seed and label give the same
 * sequence, so a benchmark's simulated customers and providers draw the same outcomes in every run.
 */
export function seededRandom(seed: number, label = ''): () => number {
  let state = createHash('sha256').update(`${seed}\n${label}`).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
