/**
 * What the deployment files say must hold for the code. The API's node flags are written in three
 * places that must agree: package.json's start:api, the Dockerfile's default command and the api
 * services of docker-compose.yml; the benchmark reads them from package.json
 * (bench/lib/api-node-flags.ts), so it measures the API with the flags that ship. And the compose
 * demo requires a private simulator secret, and with one its environment passes the production checks.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiNodeFlags } from '../../bench/lib/api-node-flags';
import packageJson from '../../package.json';
import { loadConfig } from '../../src/config';
import { parseSimulatorEnv } from '../../src/config/simulator-env';

const root = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

function dockerfileCommand(): string[] {
  const line = read('Dockerfile')
    .split('\n')
    .find((l) => l.startsWith('CMD '));
  if (!line) throw new Error('the Dockerfile has no CMD');
  return JSON.parse(line.slice(4)) as string[];
}

/** The `command:` of a service in docker-compose.yml, written as a flow sequence of quoted strings. */
function composeCommand(service: string): string[] {
  const lines = read('docker-compose.yml').split('\n');
  // `  api-1: &api` names a service and an anchor.
  const start = lines.findIndex((l) => l === `  ${service}:` || l.startsWith(`  ${service}: &`));
  if (start === -1) throw new Error(`docker-compose.yml has no ${service} service`);
  const end = lines.findIndex((l, i) => i > start && /^ {2}\S/.test(l));
  const command = lines.slice(start, end === -1 ? undefined : end).find((l) => l.trim().startsWith('command:'));
  if (!command) throw new Error(`the ${service} service has no command`);
  return JSON.parse(command.trim().slice('command:'.length)) as string[];
}

/** The `KEY: value` lines of a block of docker-compose.yml (a service's environment, or an `x-` block), quotes removed. */
function composeVariables(blockStart: string): Record<string, string> {
  const lines = read('docker-compose.yml').split('\n');
  const start = lines.indexOf(blockStart);
  if (start === -1) throw new Error(`docker-compose.yml has no line ${blockStart}`);
  const indent = blockStart.search(/\S/) + 2;
  const variables: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (line.search(/\S/) < indent) break;
    const match = /^\s*([A-Z_]+): (.*)$/.exec(line);
    if (match) variables[match[1]!] = match[2]!.replace(/^"(.*)"$/, '$1');
  }
  return variables;
}

/** The x-simulator-secret anchor: compose's interpolation of SIMULATOR_SECRET. */
function simulatorSecretAnchor(): string {
  const match = /^x-simulator-secret: &simulator-secret (.+)$/m.exec(read('docker-compose.yml'));
  if (!match) throw new Error('docker-compose.yml has no x-simulator-secret anchor');
  return match[1]!;
}

describe("the API's node flags", () => {
  const flags = apiNodeFlags();

  test('package.json starts the API with a larger young generation and no allocation-site pretenuring', () => {
    expect(flags).toEqual(['--max-semi-space-size=32', '--no-allocation-site-pretenuring', '--heap-growing-percent=20']);
  });

  test('the Dockerfile and docker-compose.yml run the same command as start:api', () => {
    const expected = packageJson.scripts['start:api'].split(/\s+/);
    expect(dockerfileCommand()).toEqual(expected);
    expect(composeCommand('api-1')).toEqual(expected);
  });

  test('this node starts with them: a V8 flag it no longer knew would stop the API from starting', () => {
    const run = spawnSync(process.execPath, [...flags, '-e', 'process.exit(0)'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  test('the flags are read from a node command line, and anything else is refused', () => {
    expect(apiNodeFlags('node dist/src/api/main.js')).toEqual([]);
    expect(apiNodeFlags('node --a=1  --b dist/x.js')).toEqual(['--a=1', '--b']);
    expect(() => apiNodeFlags('tsx src/api/main.ts')).toThrow('does not start with node');
  });
});

describe('the compose demo and its simulated providers', () => {
  // What an operator passes: `SIMULATOR_SECRET=$(openssl rand -hex 32) docker compose up`.
  const secret = randomBytes(32).toString('hex');
  const encryptionKeys = `k1:${randomBytes(32).toString('base64')}`;
  const customerKey = randomBytes(32).toString('hex');
  /** The operator's values for what compose takes from the environment. */
  const resolveSecret = (variables: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(variables).map(([name, value]) => [
        name,
        value === '*simulator-secret'
          ? secret
          : value.startsWith('${ENCRYPTION_KEYS:?')
            ? encryptionKeys
            : value.startsWith('${RANKING_CUSTOMER_KEY:?')
              ? customerKey
              : value,
      ]),
    );

  test('opts in explicitly, with one secret for the broker and the simulator host that compose requires from the environment', () => {
    const broker = composeVariables('x-broker-env: &broker-env');
    expect(broker).toMatchObject({ NODE_ENV: 'production', SANDBOX_IN_PRODUCTION: 'true', SIMULATOR_SECRET: '*simulator-secret' });
    expect(composeVariables('  simulators:')).toMatchObject({ SIMULATOR_SECRET: '*simulator-secret' });
    // `${VAR:?message}`: compose stops with the message when it is unset; no default is written down.
    expect(simulatorSecretAnchor()).toMatch(/^\$\{SIMULATOR_SECRET:\?[^}]+\}$/);
    // The payload keys too: required in production, never written down.
    expect(broker.ENCRYPTION_KEYS).toMatch(/^\$\{ENCRYPTION_KEYS:\?[^}]+\}$/);
    expect(broker.RANKING_CUSTOMER_KEY).toMatch(/^\$\{RANKING_CUSTOMER_KEY:\?[^}]+\}$/);
    expect(read('docker-compose.yml')).toMatch(/^# DEMO ONLY: /m);
  });

  test("with a private secret, the broker's and the simulator host's environments pass the production checks", () => {
    const broker = resolveSecret(composeVariables('x-broker-env: &broker-env'));
    const config = loadConfig({ ...broker, ONRAMP_INTEGRATORS_FILE: join(root, 'deploy', 'integrators.example.json') });
    expect(config.providers.sandbox.mode).toBe('simulator');
    expect(config.providers.ramp.mode).toBe('simulator');
    // The simulator host runs the image, whose NODE_ENV is production.
    expect(parseSimulatorEnv({ NODE_ENV: 'production', ...resolveSecret(composeVariables('  simulators:')) }).SIMULATOR_SECRET).toBe(
      secret,
    );
  });
});
