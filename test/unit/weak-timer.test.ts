/** The weak interval stops itself once its owner is collected, and does not keep the owner alive (run with --expose-gc). */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const script = `
const { weakInterval } = require(${JSON.stringify(join(__dirname, '../../src/weak-timer.ts'))});
let ticks = 0;
let owner = { name: 'api' };
const owned = new WeakRef(owner);
const timer = weakInterval(owner, 5, () => ticks++);
setTimeout(() => {
  const before = ticks;
  owner = undefined;
  global.gc();
  setTimeout(() => {
    global.gc();
    const after = ticks;
    setTimeout(() => {
      console.log(JSON.stringify({ before, collected: owned.deref() === undefined, stopped: ticks === after, destroyed: timer._destroyed === true }));
    }, 60);
  }, 30);
}, 40);
setTimeout(() => {}, 300);
`;

test('ticks while its owner lives; once the owner is dropped and collected, it stops by itself', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '-e', script], {
    encoding: 'utf8',
    cwd: join(__dirname, '../..'),
  });
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as { before: number; collected: boolean; stopped: boolean; destroyed: boolean };
  expect(result.before).toBeGreaterThan(0);
  expect(result.collected).toBe(true);
  expect(result.stopped).toBe(true);
  expect(result.destroyed).toBe(true);
});
