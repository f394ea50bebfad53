import type { AnswerCheck } from './json-call';

/**
 * The check of a flat JSON object whose fields are all strings, each matching its pattern (null: any
 * string), as a zod object of such fields checks it: an object (not null, not an array) with every
 * field present. The answer is returned as it is (zod would copy the fields it knows): read only those.
 */
export function flatStringShape<K extends string>(fields: Record<K, RegExp | null>): AnswerCheck<Record<K, string>> {
  const keys = Object.keys(fields) as K[];
  const patterns = keys.map((key) => fields[key]);
  return (body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const record = body as Record<string, unknown>;
    for (let i = 0; i < keys.length; i++) {
      const value = record[keys[i]!];
      if (typeof value !== 'string') return undefined;
      const pattern = patterns[i]!;
      if (pattern !== null && !pattern.test(value)) return undefined;
    }
    return record as Record<K, string>;
  };
}
