/**
 * The client's committed types are what openapi-typescript makes of the document the API serves now.
 * The check runs in its own process: openapi-typescript is ESM inside, which Node loads and jest's
 * module system does not.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

test('clients/typescript/src/openapi.ts matches the OpenAPI document (npm run client:types regenerates it)', async () => {
  const root = join(__dirname, '..', '..');
  const tsx = join(root, 'node_modules', '.bin', 'tsx');
  const { stdout } = await promisify(execFile)(tsx, ['scripts/client-types.ts', '--check'], { cwd: root });
  expect(stdout).toContain('matches the OpenAPI document');
});
