/**
 * `npm run bench:orders`'s bill (bench/README.md): the broker run again in the same rounds with one
 * part of its configuration switched, each by a second API, worker and simulator of its own, so that
 * what the part costs an order lifecycle is the difference of two measurements of the same minute.
 */

export interface OrderVariant {
  /** Its name in BENCH_ORDERS_VARIANTS, the report and the JSON. */
  name: string;
  /** The part of a lifecycle's bill it measures. */
  part: string;
  /** What it sets in the broker's environment (bench/orders.ts `brokerEnv`). */
  env: Record<string, string>;
  /**
   * `off`: the broker as benchmarked has the part and the variant goes without it (the part costs
   * broker − variant); `on`: the other way round (variant − broker).
   */
  switched: 'off' | 'on';
}

export const ORDER_VARIANTS: readonly OrderVariant[] = [
  { name: 'metrics_off', part: 'metrics (API and worker)', env: { METRICS_ENABLED: 'false' }, switched: 'off' },
  // The benchmark's broker logs nothing (LOG_LEVEL silent); production's default is info, which
  // writes the API's access log line per request and the worker's lines per order.
  { name: 'log_info', part: 'logs at LOG_LEVEL=info (access log and worker lines)', env: { LOG_LEVEL: 'info' }, switched: 'on' },
  // The benchmark's broker has the rate limits off; here they count every request (in memory, no
  // REDIS_URL) with limits out of reach, so that none is refused.
  {
    name: 'limits_on',
    part: 'per-key and per-IP rate limits (memory)',
    env: { RATE_LIMIT_REQUESTS: '1000000', RATE_LIMIT_IP_REQUESTS: '1000000000' },
    switched: 'on',
  },
];

/** BENCH_ORDERS_VARIANTS: comma-separated names, `all`, or nothing (none: the bill is opt-in). */
export function variantsFromEnv(value: string | undefined): OrderVariant[] {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.includes('all')) return [...ORDER_VARIANTS];
  return names.map((name) => {
    const variant = ORDER_VARIANTS.find((v) => v.name === name);
    if (!variant)
      throw new Error(`BENCH_ORDERS_VARIANTS: unknown variant ${name} (known: ${ORDER_VARIANTS.map((v) => v.name).join(', ')}, all)`);
    return variant;
  });
}

/** What the part costs a lifecycle, in ms of CPU: the difference of the two totals, signed by which side has it. */
export function partCostMs(variant: Pick<OrderVariant, 'switched'>, brokerTotalMs: number, variantTotalMs: number): number {
  return variant.switched === 'off' ? brokerTotalMs - variantTotalMs : variantTotalMs - brokerTotalMs;
}
