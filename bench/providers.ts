/**
 * The simulated providers of the offers benchmark: for a fan-out `width` of N, bench_1..bench_N that
 * answer in 100 ms and bench_<N+1> that turns slow, each the sandbox profile cut down to one
 * country, one fiat, one asset and one payment method (GB, GBP, BTC, card), so that every offers
 * request costs exactly one quote per provider; their sell side likewise (GB, GBP, BTC, card payout),
 * for the sell offers runs. The default width, 5, is the benchmark's historical
 * set (bench_1..5 and bench_6); bench:api also runs 10, the broker's ten providers.
 */
import { currencyDictionary } from '../src/domain/currencies';
import { ProviderRegistry } from '../src/providers/registry';
import { createSandboxAdapter } from '../src/providers/sandbox';
import type { SimulatorProfile } from '../src/simulators/kit/profile';
import type { SellProfile } from '../src/simulators/kit/sell-pricing';
import { SANDBOX_PROFILE } from '../src/simulators/sandbox/profile';
import { SANDBOX_SELL_PROFILE } from '../src/simulators/sandbox/sell-profile';

export const DEFAULT_WIDTH = 5;
export const SIM_API_KEY = 'sk_bench_sim_key';
export const SIM_WEBHOOK_SECRET = 'bench_sim_webhook_secret';

/** The healthy providers of a fan-out of `width`: bench_1..bench_<width>. */
export const fastProviderCodes = (width = DEFAULT_WIDTH): string[] => Array.from({ length: width }, (_, i) => `bench_${i + 1}`);
/** The provider that turns slow: bench_<width + 1>. */
export const slowProvider = (width = DEFAULT_WIDTH): string => `bench_${width + 1}`;
/** Every provider of a fan-out of `width`, the slow one last. */
export const benchProviderCodes = (width = DEFAULT_WIDTH): string[] => [...fastProviderCodes(width), slowProvider(width)];

export const BENCH_PROVIDER_CODES = benchProviderCodes();
export const SLOW_PROVIDER = slowProvider();

export function benchProfiles(width = DEFAULT_WIDTH): SimulatorProfile[] {
  const card = SANDBOX_PROFILE.paymentMethods.find((m) => m.code === 'card');
  if (!card) throw new Error('SANDBOX_PROFILE has no card method');
  return benchProviderCodes(width).map((code, i) => ({
    ...SANDBOX_PROFILE,
    code,
    name: `Bench ${i + 1}`,
    countries: ['GB'],
    states: undefined,
    fiat: ['GBP'],
    assets: ['BTC/bitcoin'],
    paymentMethods: [card],
  }));
}

/** What every benchmark provider buys: the sandbox's sell profile cut to GB, GBP, BTC and the card payout. */
export function benchSellProfile(): SellProfile {
  const card = SANDBOX_SELL_PROFILE.payoutMethods.find((m) => m.code === 'card_payout');
  if (!card) throw new Error('SANDBOX_SELL_PROFILE has no card_payout method');
  return { ...SANDBOX_SELL_PROFILE, countries: ['GB'], states: undefined, fiat: ['GBP'], assets: ['BTC/bitcoin'], payoutMethods: [card] };
}

/** One sandbox adapter per provider of a fan-out of `width`, each pointing at its path of the simulator host at `simUrl`. */
export function benchRegistry(simUrl: string, width = DEFAULT_WIDTH): ProviderRegistry {
  const config = { baseUrl: simUrl, apiKey: SIM_API_KEY, webhookSecret: SIM_WEBHOOK_SECRET };
  return new ProviderRegistry(
    benchProviderCodes(width).map((code, i) =>
      createSandboxAdapter(
        config,
        {
          code,
          name: `Bench ${i + 1}`,
          description: 'Simulated provider of the API benchmark.',
          icon_url: 'https://example.invalid/bench.svg',
        },
        currencyDictionary,
      ),
    ),
  );
}
