/**
 * The client package as npm publishes it: `npm pack` builds it (prepack); the tarball holds the built
 * JavaScript, its type declarations, the README, the LICENSE and package.json files, nothing else (no
 * sources, tests or source maps); every entry its package.json names is in it; and its ESM and
 * CommonJS entries, loaded from the unpacked tarball, have the same exports.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const PACKAGE_DIR = join(ROOT, 'clients', 'typescript');
/** Unpacked under the repository's node_modules, so that the package's own dependencies resolve. */
const CACHE_DIR = join(ROOT, 'node_modules', '.cache');

interface Manifest {
  name: string;
  version: string;
  license: string;
  engines: { node: string };
  main: string;
  module: string;
  types: string;
  exports: Record<string, unknown>;
  files: string[];
  repository: { type: string; url: string; directory: string };
  publishConfig: { access: string };
  dependencies: Record<string, string>;
}

const manifest = async (dir: string): Promise<Manifest> => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Every file path an `exports` map points at, conditions and subpaths included. */
function exportTargets(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (node && typeof node === 'object') return Object.values(node).flatMap(exportTargets);
  return [];
}

/** What may be published: built JavaScript and declarations, the folders' module-type markers, README, LICENSE, package.json. */
const PUBLISHABLE = [
  /^dist\/(esm|cjs)\/[\w-]+\.js$/,
  /^dist\/(esm|cjs)\/[\w-]+\.d\.ts$/,
  /^dist\/(esm|cjs)\/package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^package\.json$/,
];

let workDir: string;
let files: string[];
let tarball: string;
let unpacked: string;

beforeAll(async () => {
  await mkdir(CACHE_DIR, { recursive: true });
  workDir = await mkdtemp(join(CACHE_DIR, 'client-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', workDir], { cwd: PACKAGE_DIR });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  files = packed!.files.map((f) => f.path).sort();
  tarball = join(workDir, packed!.filename);
  await run('tar', ['-xzf', tarball, '-C', workDir]);
  unpacked = join(workDir, 'package');
}, 180_000);

afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

test('the tarball holds only built JavaScript, declarations, README, LICENSE and package.json files', async () => {
  expect(files.filter((path) => !PUBLISHABLE.some((pattern) => pattern.test(path)))).toEqual([]);
  expect(files.filter((path) => path.endsWith('.map') || path.startsWith('src/') || /\.test\.|\.spec\./.test(path))).toEqual([]);
  expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/esm/package.json', 'dist/cjs/package.json']));
  const { stdout } = await run('tar', ['-tzf', tarball]);
  const listed = stdout
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''))
    .sort();
  expect(listed).toEqual(files);
});

test('ESM and CommonJS builds hold the same modules, each with its declarations', () => {
  const modules = (format: string, extension: string) =>
    files
      .filter((path) => path.startsWith(`dist/${format}/`) && path.endsWith(extension))
      .map((path) => path.slice(`dist/${format}/`.length, -extension.length))
      .sort();
  const esm = modules('esm', '.js');
  expect(esm).toContain('index');
  expect(modules('cjs', '.js')).toEqual(esm);
  expect(modules('esm', '.d.ts')).toEqual(esm);
  expect(modules('cjs', '.d.ts')).toEqual(esm);
});

test('every entry package.json names is in the tarball, and the publishing fields are set', async () => {
  const packed = await manifest(unpacked);
  const entries = [packed.main, packed.module, packed.types, ...exportTargets(packed.exports)].map((path) => path.replace(/^\.\//, ''));
  expect(entries.filter((path) => !files.includes(path))).toEqual([]);
  expect(packed).toMatchObject({
    name: '@onramp-broker/client',
    license: 'Apache-2.0',
    engines: { node: expect.stringMatching(/^>=\d+/) as unknown },
    repository: { type: 'git', directory: 'clients/typescript' },
    publishConfig: { access: 'public' },
  });
  expect(packed.repository.url).toMatch(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
  expect(await readFile(join(unpacked, 'LICENSE'), 'utf8')).toContain('Apache License');
  // The client is released with the broker, under the broker's version (docs/operations.md, "Releasing").
  expect(packed.version).toBe((await manifest(ROOT)).version);
});

test('the README stands alone on the registry page: every link is absolute and to the repository', async () => {
  const readme = await readFile(join(unpacked, 'README.md'), 'utf8');
  const { repository } = await manifest(unpacked);
  const repositoryUrl = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  const links = [...readme.matchAll(/\]\(([^)\s]+)[^)]*\)|<(https?:\/\/[^>]+)>|^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
  expect(links.length).toBeGreaterThan(0);
  expect(links.filter((link) => !link!.startsWith(`${repositoryUrl}/`) && link !== repositoryUrl)).toEqual([]);
  expect(readme).toMatch(/npm install @onramp-broker\/client/);
  expect(readme).toContain('verifyWebhook(');
});

test('the ESM and CommonJS entries of the unpacked tarball load with the same exports', async () => {
  const names = 'Object.keys(m).sort().join(",")';
  const cjs = await run(process.execPath, ['-e', `const m = require('./dist/cjs/index.js'); console.log(${names})`], { cwd: unpacked });
  const esm = await run(
    process.execPath,
    ['--input-type=module', '-e', `import * as m from './dist/esm/index.js'; console.log(${names})`],
    {
      cwd: unpacked,
    },
  );
  expect(cjs.stdout).toContain('OnrampClient,OperatorClient,ProblemError');
  expect(esm.stdout).toBe(cjs.stdout);
});
