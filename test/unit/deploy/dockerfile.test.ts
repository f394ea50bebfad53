/**
 * The image, checked without a Docker engine (none runs where the tests do): hadolint lints the
 * Dockerfile (scripts/ensure-hadolint.sh finds or fetches it), and this file checks what hadolint
 * does not know about this project: one multi-stage image whose final stage holds production
 * dependencies and dist/ only, runs as a non-root user with a health check, builds from a base image
 * pinned by version, sends the build every file it copies (.dockerignore), and is the image every
 * broker service of docker-compose.yml runs, each with a command that package.json starts and the
 * build produces.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import packageJson from '../../../package.json';

const root = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** The Dockerfile's instructions by stage: continuation lines joined, comments and blank lines dropped. */
function stages(): Stage[] {
  const logical = read('Dockerfile')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const result: Stage[] = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') {
      const [from = '', as, name] = instruction.args.split(' ');
      result.push({ from, ...(as?.toUpperCase() === 'AS' && name ? { name } : {}), instructions: [] });
    } else {
      if (result.length === 0) throw new Error(`Dockerfile: ${instruction.keyword} before any FROM`);
      result.at(-1)!.instructions.push(instruction);
    }
  }
  return result;
}

const all = stages();
const runtime = all.at(-1)!;
const stageNamed = (name: string) => all.find((stage) => stage.name === name);
const ofKind = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
/** `COPY [--from=x] [--chown=y] src... dest`: its options, sources and destination. */
function copyParts(args: string): { from?: string; chown?: string; sources: string[] } {
  const words = args.split(' ');
  const options = words.filter((w) => w.startsWith('--'));
  const paths = words.filter((w) => !w.startsWith('--'));
  const option = (name: string) => options.find((o) => o.startsWith(`--${name}=`))?.slice(name.length + 3);
  return { from: option('from'), chown: option('chown'), sources: paths.slice(0, -1) };
}

/** Whether .dockerignore keeps `path` out of the build context (Docker's rules: last match wins, `!` re-includes). */
function ignoredByDockerignore(path: string): boolean {
  const rules = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const matches = (pattern: string) => {
    const regex = new RegExp(
      `^${pattern
        .replace(/^\/+|\/+$/g, '')
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*/g, '§§')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')
        .replace(/§§/g, '.*')}$`,
    );
    const parts = path.split('/');
    return parts.some((_, i) => regex.test(parts.slice(0, i + 1).join('/')));
  };
  let ignored = false;
  for (const rule of rules) {
    if (rule.startsWith('!')) {
      if (matches(rule.slice(1))) ignored = false;
    } else if (matches(rule)) ignored = true;
  }
  return ignored;
}

describe('the Dockerfile', () => {
  test('passes hadolint', () => {
    const hadolint = execFileSync('bash', [join(root, 'scripts', 'ensure-hadolint.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }).trim();
    // hadolint exits non-zero on any finding, down to "info", and prints each one.
    const lint = () => execFileSync(hadolint, ['--no-color', 'Dockerfile'], { cwd: root, encoding: 'utf8' });
    expect(lint).not.toThrow();
  }, 120_000);

  test('builds every stage on one base image pinned by version, never latest or a floating tag', () => {
    const names = new Set(all.map((stage) => stage.name).filter(Boolean));
    const external = all.map((stage) => stage.from).filter((from) => !names.has(from));
    expect(external.length).toBeGreaterThan(0);
    for (const image of external) {
      expect(image).toMatch(/^[\w./-]+:\d+\.\d+\.\d+(-[\w.-]+)?(@sha256:[0-9a-f]{64})?$/);
      expect(image).not.toMatch(/latest|\$/);
    }
    expect(new Set(external).size).toBe(1);
  });

  test('is multi-stage: dev dependencies build dist/, the final stage gets production dependencies and dist/ only', () => {
    const copies = ofKind(runtime, 'COPY').map((i) => copyParts(i.args));
    const fromStages = copies.filter((c) => c.from).map((c) => ({ from: c.from!, sources: c.sources }));
    expect(fromStages).toEqual([
      { from: expect.any(String), sources: ['/app/node_modules'] },
      { from: expect.any(String), sources: ['/app/dist'] },
    ]);
    const [deps, build] = fromStages.map((c) => stageNamed(c.from));
    expect(ofKind(deps!, 'RUN').map((i) => i.args)).toEqual([expect.stringMatching(/^npm ci --omit=dev\b/)]);
    const buildRuns = ofKind(build!, 'RUN').map((i) => i.args);
    expect(buildRuns).toEqual([expect.stringMatching(/^npm ci\b(?!.*--omit)/), 'npm run build']);
    // Nothing else in the final stage comes from the build context but the package manifest.
    expect(copies.filter((c) => !c.from).flatMap((c) => c.sources)).toEqual(['package.json', 'package-lock.json']);
    expect(ofKind(runtime, 'RUN')).toEqual([]);
    expect(
      ofKind(runtime, 'ENV')
        .map((i) => i.args)
        .join(' '),
    ).toMatch(/NODE_ENV=production/);
  });

  test('runs as a non-root user, on files it cannot change', () => {
    const users = ofKind(runtime, 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.split(':')[0]!;
    expect(['root', '0']).not.toContain(user);
    // Numeric, so that a runtime can tell it is not root without the image's /etc/passwd (node's uid).
    expect(user).toBe('1000');
    expect(ofKind(runtime, 'COPY').filter((i) => copyParts(i.args).chown)).toEqual([]);
  });

  test("has a health check: the API's GET /healthz on $PORT, in exec form", () => {
    const [check, ...more] = ofKind(runtime, 'HEALTHCHECK').map((i) => i.args);
    expect(more).toEqual([]);
    expect(check).toMatch(/--interval=\d+s/);
    expect(check).toMatch(/--timeout=\d+s/);
    const command = JSON.parse(check!.slice(check!.indexOf('CMD ') + 4)) as string[];
    expect(command.slice(0, 2)).toEqual(['node', '-e']);
    expect(command[2]).toContain('process.env.PORT');
    expect(command[2]).toContain('/healthz');
  });

  test('copies into the build what npm run build compiles, and .dockerignore lets every copied path through', () => {
    const buildStage = all.find((stage) => ofKind(stage, 'RUN').some((i) => i.args === 'npm run build'))!;
    const sources = all.flatMap((stage) =>
      ofKind(stage, 'COPY')
        .map((i) => copyParts(i.args))
        .filter((c) => !c.from)
        .flatMap((c) => c.sources),
    );
    for (const source of sources) {
      expect({ source, exists: existsSync(join(root, source)) }).toEqual({ source, exists: true });
      expect({ source, ignored: ignoredByDockerignore(source) }).toEqual({ source, ignored: false });
    }
    const copiedToBuild = ofKind(buildStage, 'COPY').flatMap((i) => copyParts(i.args).sources);
    const buildConfig = JSON.parse(read('tsconfig.build.json')) as { include: string[] };
    const scriptFiles = packageJson.scripts.build.split(/\s+/).filter((word) => /\.(ts|json)$/.test(word));
    for (const needed of [...buildConfig.include, ...scriptFiles, 'tsconfig.json']) expect(copiedToBuild).toContain(needed);
  });
});

describe('docker-compose.yml runs that one image', () => {
  interface Service {
    image?: string;
    build?: { context?: string; dockerfile?: string };
    command?: string[];
    healthcheck?: { test?: string[] };
  }
  const services = (parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> }).services;
  const built = Object.entries(services).filter(([, service]) => service.build);

  test('every service built from this repository builds the Dockerfile under one image name', () => {
    expect(built.map(([name]) => name).sort()).toEqual(['api-1', 'api-2', 'simulators', 'worker-1', 'worker-2']);
    for (const [, service] of built) expect(service.build).toEqual({ context: '.', dockerfile: 'Dockerfile' });
    expect(new Set(built.map(([, service]) => service.image)).size).toBe(1);
  });

  test('each runs a node command that a start script of package.json runs, on a file the build makes', () => {
    const startScripts = Object.entries(packageJson.scripts)
      .filter(([name]) => name.startsWith('start:'))
      .map(([, script]) => script);
    for (const [name, service] of built) {
      const command = service.command ?? [];
      expect({ name, command: command.join(' ') }).toEqual({ name, command: expect.stringMatching(/^node /) });
      expect({ name, started: startScripts.includes(command.join(' ')) }).toEqual({ name, started: true });
      const entry = command.at(-1)!;
      const source = entry.replace(/^dist\//, '').replace(/\.js$/, '.ts');
      expect({ name, source, exists: existsSync(join(root, source)) }).toEqual({ name, source, exists: true });
    }
  });

  test('each has a health check: the API its /healthz, the worker its metrics port, the simulators their host', () => {
    for (const [name, service] of built) {
      const check = (service.healthcheck?.test ?? []).join(' ');
      expect({ name, check }).toEqual({
        name,
        check: expect.stringMatching(/^CMD node -e fetch\('http:\/\/127\.0\.0\.1:\d+\//),
      });
    }
  });
});
