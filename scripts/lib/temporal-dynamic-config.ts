import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';

/** The broker's Temporal dynamic configuration, the one file every topology uses. */
export const TEMPORAL_DYNAMIC_CONFIG_FILE = resolve(__dirname, '..', '..', 'deploy', 'temporal', 'dynamicconfig.yaml');

/** Each key's value, from deploy/temporal/dynamicconfig.yaml (a key with constraints keeps its first, unconstrained value). */
export function temporalDynamicConfig(file = TEMPORAL_DYNAMIC_CONFIG_FILE): Record<string, unknown> {
  const parsed = parse(readFileSync(file, 'utf8')) as Record<string, { value: unknown; constraints?: unknown }[]>;
  const values: Record<string, unknown> = {};
  for (const [key, entries] of Object.entries(parsed)) {
    const entry = entries.find((e) => e.constraints === undefined);
    if (!entry) throw new Error(`${file}: ${key} has no value without constraints, which the dev server cannot take`);
    values[key] = entry.value;
  }
  return values;
}

/** The same as `temporal server start-dev` arguments (`--dynamic-config-value key=<JSON>`). */
export function devServerDynamicConfigArgs(file = TEMPORAL_DYNAMIC_CONFIG_FILE): string[] {
  return Object.entries(temporalDynamicConfig(file)).flatMap(([key, value]) => [
    '--dynamic-config-value',
    `${key}=${JSON.stringify(value)}`,
  ]);
}
