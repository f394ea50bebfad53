/**
 * The client package as npm packs it: `npm pack` builds it (prepack), and the tarball's ESM and
 * CommonJS entries load in Node with the same exports.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PACKAGE_DIR = join(__dirname, '..', '..', 'clients', 'typescript');

test('npm pack builds ESM and CommonJS entries that load with the same exports', async () => {
  const out = await mkdtemp(join(tmpdir(), 'client-pack-'));
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', out], { cwd: PACKAGE_DIR });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining(['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'README.md']),
    );
    const names = 'Object.keys(m).sort().join(",")';
    const cjs = await run(process.execPath, ['-e', `const m = require('./dist/cjs/index.js'); console.log(${names})`], {
      cwd: PACKAGE_DIR,
    });
    const esm = await run(
      process.execPath,
      ['--input-type=module', '-e', `import * as m from './dist/esm/index.js'; console.log(${names})`],
      {
        cwd: PACKAGE_DIR,
      },
    );
    expect(cjs.stdout).toContain('OnrampClient,ProblemError');
    expect(esm.stdout).toBe(cjs.stdout);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}, 120_000);
