/**
 * The node flags the API runs with in production, read from package.json's `start:api` script
 * (the Dockerfile and docker-compose.yml use the same, test/unit/deploy-commands.test.ts checks):
 * the benchmark runs its servers with the flags that ship (though on the TypeScript sources
 * through tsx, which costs the API about 5 % more CPU than the compiled dist/ it runs in production).
 */
import packageJson from '../../package.json';

export function apiNodeFlags(startScript: string = packageJson.scripts['start:api']): string[] {
  const words = startScript.trim().split(/\s+/);
  if (words[0] !== 'node') throw new Error(`start:api does not start with node: ${startScript}`);
  return words.slice(1).filter((word) => word.startsWith('--'));
}
