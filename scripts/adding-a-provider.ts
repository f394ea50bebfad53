/**
 * Proves docs/providers.md, "Adding a provider": in a temporary copy of the repository (node_modules
 * linked), adds a throwaway provider made of MoonPay's own files under another code, edits only the
 * files shared by all providers that the docs name, and checks that
 *   1. without its entry in the test kit table, typecheck fails there and nowhere else;
 *   2. with it, typecheck passes;
 *   3. no file outside the provider's own changed but those the docs name, at most four.
 * Typecheck of the whole project takes minutes on 2 cores, so this is a script (npm run
 * check:adding-a-provider, run by .ci/run) rather than a jest test. ADDING_A_PROVIDER_KEEP=1 keeps
 * the copy.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
/** What the copy leaves out: installed, built or local-only (.gitignore) at the top, installed or built below. */
const NOT_COPIED = new Set(['.git', 'node_modules', 'dist', '.data', '.tools', 'coverage', 'reports', '.schemathesis']);
const NOT_COPIED_BELOW = new Set(['node_modules', 'dist']);
const copied = (path: string) => {
  const names = path.split('/');
  return !NOT_COPIED.has(names[0]!) && !names.some((name) => NOT_COPIED_BELOW.has(name));
};
const MAX_SHARED_FILES = 4;

const FROM = 'moonpay';
const CODE = 'throwaway';
/** MoonPay's names, spelt each way its files spell them, and the throwaway provider's. */
const RENAMES: [RegExp, string][] = [
  [/MoonPay/g, 'Throwaway'],
  [/Moonpay/g, 'Throwaway'],
  [/MOONPAY/g, 'THROWAWAY'],
  [/moonpay/g, 'throwaway'],
];
const rename = (text: string) => RENAMES.reduce((out, [from, to]) => out.replace(from, to), text);

/** The provider's own files and folders, which a new provider adds (copied from MoonPay's). */
const OWN = [
  `src/providers/${CODE}`,
  `src/simulators/${CODE}`,
  `test/helpers/providers/${CODE}.ts`,
  `test/unit/providers/${CODE}`,
  `test/integration/providers/${CODE}.test.ts`,
  `docs/providers/${CODE}.md`,
];

/**
 * The edits to the shared files: after each line (or entry) that lists MoonPay, the same for the
 * throwaway provider. The test kit table comes last, so typecheck can run once without it.
 */
const SHARED_EDITS: { file: string; after: RegExp[] }[] = [
  {
    file: 'src/providers/manifest.ts',
    after: [/^import \{ moonpayProvider \} from '\.\/moonpay';\n/m, /^ {2}moonpayProvider,\n/m],
  },
  {
    file: 'src/simulators/index.ts',
    after: [
      /^import \{ moonpaySimulatorCredentials \} from '\.\.\/providers\/moonpay\/config';\n/m,
      /^import \{ createMoonpaySimulator \} from '\.\/moonpay\/server';\n/m,
      /^ {2}moonpay: \(site, options\) =>\n(?: {4}.*\n)+/m,
    ],
  },
  { file: 'docs/providers.md', after: [/^\| `moonpay` \|.*\n/m] },
  {
    file: 'test/helpers/providers/index.ts',
    after: [/^import \{ moonpayTestKit \} from '\.\/moonpay';\n/m, /^ {2}moonpay: moonpayTestKit,\n/m],
  },
];
const KIT_TABLE = 'test/helpers/providers/index.ts';

class ProofFailed extends Error {}

function fail(message: string): never {
  throw new ProofFailed(message);
}

function copyRepository(to: string): void {
  for (const name of readdirSync(ROOT)) {
    if (copied(name)) cpSync(join(ROOT, name), join(to, name), { recursive: true, filter: (source) => copied(relative(ROOT, source)) });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(to, 'node_modules'), 'dir');
}

/** Copies MoonPay's own files under the throwaway code, renaming MoonPay in paths and contents. */
function addOwnFiles(copy: string): void {
  const copyRenamed = (from: string, to: string) => {
    if (statSync(from).isDirectory()) {
      mkdirSync(to, { recursive: true });
      for (const name of readdirSync(from)) copyRenamed(join(from, name), join(to, rename(name)));
    } else writeFileSync(to, rename(readFileSync(from, 'utf8')));
  };
  for (const path of OWN) {
    const from = join(copy, path.replaceAll(CODE, FROM));
    if (!existsSync(from)) fail(`${relative(copy, from)} does not exist: update OWN in ${relative(ROOT, __filename)}`);
    copyRenamed(from, join(copy, path));
  }
}

function editShared(copy: string, edit: (typeof SHARED_EDITS)[number]): void {
  const path = join(copy, edit.file);
  let text = readFileSync(path, 'utf8');
  for (const anchor of edit.after) {
    const match = anchor.exec(text);
    if (!match) fail(`${edit.file} has no line matching ${String(anchor)}: update SHARED_EDITS in ${relative(ROOT, __filename)}`);
    const end = match.index + match[0].length;
    text = text.slice(0, end) + rename(match[0]) + text.slice(end);
  }
  writeFileSync(path, text);
}

/** tsc --noEmit over the project, incremental so that the second run rechecks only what changed. */
function typecheck(copy: string): { ok: boolean; errors: string[] } {
  const tsc = join(copy, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', '.tsbuildinfo'], {
    cwd: copy,
    encoding: 'utf8',
  });
  const errors = run.stdout.split('\n').filter((line) => / error TS\d+:/.test(line));
  if (run.status !== 0 && errors.length === 0) fail(`tsc did not run: ${run.error?.message ?? run.stderr}`);
  return { ok: run.status === 0, errors };
}

/** Every file of the copy (relative), what is not copied and the build info left out. */
function files(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const path = join(under, name);
    if (!copied(path) || path === '.tsbuildinfo') return [];
    return statSync(join(dir, path)).isDirectory() ? files(dir, path) : [path];
  });
}

/** Files of the copy that are new or differ from the repository's, outside the provider's own. */
function sharedFilesChanged(copy: string): string[] {
  const own = (path: string) => OWN.some((o) => path === o || path.startsWith(`${o}/`));
  return files(copy).filter((path) => {
    if (own(path)) return false;
    const original = join(ROOT, path);
    return !existsSync(original) || !readFileSync(original).equals(readFileSync(join(copy, path)));
  });
}

/** The "Adding a provider" section of docs/providers.md. */
function docsSection(): string {
  const text = readFileSync(join(ROOT, 'docs', 'providers.md'), 'utf8');
  const start = text.indexOf('## Adding a provider');
  if (start < 0) fail('docs/providers.md has no "Adding a provider" section');
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

function main(): void {
  const copy = mkdtempSync(join(tmpdir(), 'adding-a-provider-'));
  const started = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
  try {
    copyRepository(copy);
    addOwnFiles(copy);
    for (const edit of SHARED_EDITS) if (edit.file !== KIT_TABLE) editShared(copy, edit);
    console.log(`adding-a-provider: provider '${CODE}' (MoonPay's files) added in ${copy}; typecheck without its test kit entry...`);

    const without = typecheck(copy);
    if (without.ok) fail(`typecheck passed without the ${CODE} entry in ${KIT_TABLE}: the table is not keyed by the manifest`);
    const elsewhere = without.errors.filter((line) => !line.startsWith(`${KIT_TABLE}(`));
    if (elsewhere.length > 0) {
      fail(`typecheck without the test kit entry should fail in ${KIT_TABLE} only; it failed with:\n${without.errors.join('\n')}`);
    }
    if (!without.errors.some((line) => line.includes(`'${CODE}'`))) fail(`the error in ${KIT_TABLE} does not name '${CODE}'`);
    console.log(`adding-a-provider: fails in ${KIT_TABLE} only, naming '${CODE}' (${elapsed()}):\n  ${without.errors.join('\n  ')}`);

    const kitTableEdit = SHARED_EDITS.find((edit) => edit.file === KIT_TABLE)!;
    editShared(copy, kitTableEdit);
    const withKit = typecheck(copy);
    if (!withKit.ok) fail(`typecheck fails with the provider added:\n${withKit.errors.join('\n')}`);
    console.log(`adding-a-provider: typecheck passes with the test kit entry (${elapsed()})`);

    const changed = sharedFilesChanged(copy);
    const expected = SHARED_EDITS.map((edit) => edit.file);
    if (changed.sort().join() !== [...expected].sort().join()) {
      fail(`the files changed outside the provider's own are\n  ${changed.join('\n  ')}\nnot the ones edited:\n  ${expected.join('\n  ')}`);
    }
    if (changed.length > MAX_SHARED_FILES) fail(`adding a provider edits ${changed.length} shared files, more than ${MAX_SHARED_FILES}`);
    const section = docsSection();
    const unnamed = [...changed, ...OWN.map((path) => path.replaceAll(CODE, '<code>'))].filter((path) => !section.includes(path));
    if (unnamed.length > 0) fail(`docs/providers.md, "Adding a provider", does not name ${unnamed.join(', ')}`);
    console.log(
      `adding-a-provider: ${changed.length} files changed outside the provider's own, as docs/providers.md lists:\n  ${changed.join('\n  ')}`,
    );
  } finally {
    if (process.env.ADDING_A_PROVIDER_KEEP === '1') console.log(`adding-a-provider: kept ${copy}`);
    else rmSync(copy, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  console.error(`adding-a-provider: ${err instanceof ProofFailed ? err.message : String((err as Error).stack ?? err)}`);
  process.exitCode = 1;
}
