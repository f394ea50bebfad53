/**
 * The node flags the API runs with in production, read from package.json's `start:api` script
 * (the Dockerfile and docker-compose.yml use the same, test/unit/deploy-commands.test.ts checks):
 * the benchmark runs its servers with the flags that ship, on compiled JavaScript as in production
 * (bench/lib/compiled.ts).
 */
import packageJson from '../../package.json';

export function apiNodeFlags(startScript: string = packageJson.scripts['start:api']): string[] {
  const words = startScript.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`start:api does not start with node: ${startScript}`);
  return words.slice(1).filter((word) => word.startsWith('--'));
}
