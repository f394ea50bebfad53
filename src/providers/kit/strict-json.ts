import { WebhookVerificationError } from '../types';
import { parseJson } from './webhook';

/**
 * A webhook body as JSON, refused (like a bad signature) when an object in it names a key twice or
 * has a `__proto__` key. JSON.parse keeps the last of duplicate keys silently, and a parsed
 * `__proto__` key is an own property that copying into a new object turns into its prototype: either
 * way, a scheme that signs the body written out again can be made to sign other values than the
 * ones read.
 */
export function parseStrictJson(body: Buffer | string, refusal = 'signed body is not JSON'): unknown {
  const text = body.toString('utf8');
  const json = parseJson(text, refusal);
  const unsafe = unsafeKey(text);
  if (unsafe !== undefined) throw new WebhookVerificationError(`signed body has ${unsafe}`);
  return json;
}

/**
 * The first duplicate or `__proto__` key of a valid JSON text, described; undefined when it has none.
 * A scan of the text, without recursion (a deeply nested body is not a stack overflow).
 */
function unsafeKey(text: string): string | undefined {
  // Per open container: the keys seen (an object) or null (an array).
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      open.push(new Set());
      expectKey = true;
    } else if (c === '[') {
      open.push(null);
      expectKey = false;
    } else if (c === '}' || c === ']') {
      open.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = open.at(-1) instanceof Set;
    } else if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (!expectKey) continue;
      const keys = open.at(-1)!;
      const key = JSON.parse(text.slice(start, i + 1)) as string;
      if (key === '__proto__') return 'a __proto__ key';
      if (keys.has(key)) return 'a duplicate key';
      keys.add(key);
      expectKey = false;
    }
  }
  return undefined;
}
