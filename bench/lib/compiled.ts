/**
 * The benchmarks' children run compiled JavaScript, as the broker does in production (`npm run
 * build`, `node dist/...`), not the TypeScript sources through tsx: tsx's loader keeps every
 * module's transformed code and source map in memory (about 50 MB more resident memory in the API,
 * and some CPU), which would be measured as the broker's. `compiledBench()` compiles bench/, src/
 * and what they import with tsc (bench/tsconfig.build.json) once per benchmark run, into a cache
 * directory emptied first (tsc leaves the output of a source that has gone, which Node could load in
 * place of its successor), and answers that directory; a child's script is found at the same
 * relative path in it. One benchmark at a time per checkout: a second would recompile under the
 * first one's children (and disturb its figures anyway).
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const COMPILED_BENCH_DIR = join(ROOT, 'node_modules', '.cache', 'onramp-bench');

let compiled = false;

export function compiledBench(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): string {
  if (!compiled) {
    const started = Date.now();
    rmSync(COMPILED_BENCH_DIR, { recursive: true, force: true });
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'bench', 'tsconfig.build.json')], {
      cwd: ROOT,
      stdio: ['ignore', 2, 2],
    });
    log(`compiled the benchmark's children with tsc into ${COMPILED_BENCH_DIR} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    compiled = true;
  }
  return COMPILED_BENCH_DIR;
}

/** `script` (relative to the repository root, .ts) as compiled: its .js under the compiled directory. */
export function compiledScript(script: string): string {
  return join(compiledBench(), script.replace(/\.ts$/, '.js'));
}
