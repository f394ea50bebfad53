/**
 * Child process of `npm run bench:isolation`: integrator A's load, in a process of its own so that
 * A's client work never shares an event loop with B's timings. Reads ROLE (`search` or `burst`),
 * API_URL, A_ID, A_KEY, SEARCHES (search), SLOW_PROVIDER (burst); runs until SIGTERM, then writes
 * what it sent, as JSON, to RESULT_PATH and exits.
 */
import { writeFileSync } from 'node:fs';
import { Broker, offerBurst, searchLoops } from './lib/isolation-client';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

let running = true;
process.once('SIGTERM', () => (running = false)).once('SIGINT', () => (running = false));

const broker = new Broker(env('API_URL'));
const a = { id: env('A_ID'), key: env('A_KEY') };
const role = env('ROLE');
const load =
  role === 'search'
    ? searchLoops(broker, a, Number(env('SEARCHES')), () => running)
    : role === 'burst'
      ? offerBurst(broker, a, env('SLOW_PROVIDER'), () => running)
      : Promise.reject(new Error(`unknown ROLE ${role}`));
load.then(
  (result) => {
    writeFileSync(env('RESULT_PATH'), JSON.stringify(result));
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
