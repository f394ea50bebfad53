import { ORDER_VARIANTS, partCostMs, variantsFromEnv } from '../../../bench/lib/order-variants';
import { buildConfig, parseEnv } from '../../../src/config';

describe('bench:orders variants (the bill)', () => {
  test('none unless asked: the bill is opt-in', () => {
    expect(variantsFromEnv(undefined)).toEqual([]);
    expect(variantsFromEnv('')).toEqual([]);
    expect(variantsFromEnv(' , ')).toEqual([]);
  });

  test('by name, in the order given, or all of them', () => {
    expect(variantsFromEnv('limits_on, metrics_off').map((v) => v.name)).toEqual(['limits_on', 'metrics_off']);
    expect(variantsFromEnv('all').map((v) => v.name)).toEqual(ORDER_VARIANTS.map((v) => v.name));
  });

  test('an unknown name stops the run before anything starts', () => {
    expect(() => variantsFromEnv('metrics_off,codec_off')).toThrow(/unknown variant codec_off/);
  });

  test('each variant switches something the broker reads, and says which way', () => {
    for (const variant of ORDER_VARIANTS) {
      expect(Object.keys(variant.env).length).toBeGreaterThan(0);
      expect(['on', 'off']).toContain(variant.switched);
    }
    const configOf = (name: string) =>
      buildConfig(
        parseEnv({
          NODE_ENV: 'development',
          LOG_LEVEL: 'silent',
          RATE_LIMIT_REQUESTS: '0',
          RATE_LIMIT_IP_REQUESTS: '0',
          ...ORDER_VARIANTS.find((v) => v.name === name)!.env,
        }),
      );
    const benchmarked = buildConfig(
      parseEnv({ NODE_ENV: 'development', LOG_LEVEL: 'silent', RATE_LIMIT_REQUESTS: '0', RATE_LIMIT_IP_REQUESTS: '0' }),
    );
    expect(benchmarked.metrics.enabled).toBe(true);
    expect(configOf('metrics_off').metrics.enabled).toBe(false);
    expect(benchmarked.logLevel).toBe('silent');
    expect(configOf('log_info').logLevel).toBe('info');
    // 0 turns a limit off; the variant counts every request with limits no run reaches.
    expect([benchmarked.rateLimit.limit, benchmarked.ipRateLimit.limit]).toEqual([0, 0]);
    expect([configOf('limits_on').rateLimit.limit, configOf('limits_on').ipRateLimit.limit]).toEqual([1_000_000, 1_000_000_000]);
  });

  test('a part switched off costs the broker minus the variant; one switched on, the variant minus the broker', () => {
    expect(partCostMs({ switched: 'off' }, 120, 110)).toBe(10);
    expect(partCostMs({ switched: 'on' }, 120, 126)).toBe(6);
    // Noise can make a part look free or negative; the figure says so rather than hiding it.
    expect(partCostMs({ switched: 'off' }, 120, 123)).toBe(-3);
  });
});
