/** How large an order's `extras` may be (docs/api.md, "POST /api/on_ramp/orders"). */
export const EXTRAS_LIMITS = {
  /** Levels of objects and arrays, `extras` itself counting as the first. */
  depth: 5,
  /** Keys of every object inside `extras`, itself included. */
  keys: 50,
  /** Bytes of `extras` as JSON (UTF-8). */
  bytes: 8 * 1024,
} as const;

/**
 * Which limit `extras` breaks, if any. The walk is iterative and stops at the first broken limit, so
 * a body nested thousands deep is measured without recursion (which would overflow the stack).
 */
export function extrasLimitBroken(extras: Record<string, unknown>): string | undefined {
  const pending: { value: unknown; depth: number }[] = [{ value: extras, depth: 1 }];
  let keys = 0;
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, depth } = next;
    if (value === null || typeof value !== 'object') continue;
    if (depth > EXTRAS_LIMITS.depth) return `at most ${EXTRAS_LIMITS.depth} levels of nested objects and arrays`;
    const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    if (!Array.isArray(value)) keys += children.length;
    if (keys > EXTRAS_LIMITS.keys) return `at most ${EXTRAS_LIMITS.keys} keys in all`;
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
  if (Buffer.byteLength(JSON.stringify(extras)) > EXTRAS_LIMITS.bytes) return `at most ${EXTRAS_LIMITS.bytes} bytes as JSON`;
  return undefined;
}
