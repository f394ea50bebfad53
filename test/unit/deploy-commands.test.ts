/**
 * The API's node flags are written in three places that must agree: package.json's start:api,
 * the Dockerfile's default command and the api service of docker-compose.yml. The benchmark reads
 * them from package.json (bench/lib/api-node-flags.ts), so it measures the API with the flags that ship.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiNodeFlags } from '../../bench/lib/api-node-flags';
import packageJson from '../../package.json';

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
  const start = lines.indexOf(`  ${service}:`);
  if (start === -1) throw new Error(`docker-compose.yml has no ${service} service`);
  const end = lines.findIndex((l, i) => i > start && /^ {2}\S/.test(l));
  const command = lines.slice(start, end === -1 ? undefined : end).find((l) => l.trim().startsWith('command:'));
  if (!command) throw new Error(`the ${service} service has no command`);
  return JSON.parse(command.trim().slice('command:'.length)) as string[];
}

describe("the API's node flags", () => {
  const flags = apiNodeFlags();

  test('package.json starts the API with a larger young generation and no allocation-site pretenuring', () => {
    expect(flags).toEqual(['--max-semi-space-size=32', '--no-allocation-site-pretenuring']);
  });

  test('the Dockerfile and docker-compose.yml run the same command as start:api', () => {
    const expected = packageJson.scripts['start:api'].split(/\s+/);
    expect(dockerfileCommand()).toEqual(expected);
    expect(composeCommand('api')).toEqual(expected);
  });

  test('the flags are read from a node command line, and anything else is refused', () => {
    expect(apiNodeFlags('node dist/src/api/main.js')).toEqual([]);
    expect(apiNodeFlags('node --a=1  --b dist/x.js')).toEqual(['--a=1', '--b']);
    expect(() => apiNodeFlags('tsx src/api/main.ts')).toThrow('does not start with node');
  });
});
