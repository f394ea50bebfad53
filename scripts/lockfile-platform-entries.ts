/**
 * Adds lockfile entries for the other-platform binaries of optional dependencies (for example
 * @swc/core-darwin-arm64) when the registry this machine uses does not serve them: npm then
 * leaves them out of package-lock.json and `npm ci` refuses the lockfile ("Missing: … from lock
 * file"). Each entry names the version, `optional`, and the `os`/`cpu` read from the package name,
 * so npm skips it on every other platform, as it would with an entry from the full registry.
 * Run after changing dependencies: `npm run lockfile:platforms`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const OSES = ['darwin', 'linux', 'win32', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPUS = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'loong64', 'riscv64', 'mips64el', 'wasm32'];

interface LockEntry {
  version?: string;
  optional?: boolean;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

const path = resolve(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(path, 'utf8')) as { packages: Record<string, LockEntry> };
const added: string[] = [];

for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location}/node_modules/${name}`;
    if (lock.packages[`node_modules/${name}`] || lock.packages[nested]) continue;
    const tokens = name.split('/').pop()!.split('-');
    const os = OSES.find((o) => tokens.includes(o));
    const cpu = CPUS.find((c) => tokens.includes(c));
    if (!os || !cpu || !/^\d+\.\d+\.\d+/.test(version)) {
      process.stderr.write(`skipped ${name}@${version}: cannot tell its platform or exact version\n`);
      continue;
    }
    const libc = os === 'linux' ? (tokens.some((t) => t.startsWith('musl')) ? ['musl'] : ['glibc']) : undefined;
    lock.packages[`node_modules/${name}`] = { version, cpu: [cpu], optional: true, os: [os], ...(libc ? { libc } : {}) };
    added.push(`${name}@${version} (${os}/${cpu})`);
  }
}

lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
process.stdout.write(added.length ? `added ${added.length} entries:\n  ${added.join('\n  ')}\n` : 'nothing to add\n');
