/**
 * The six simulated providers of the offers benchmark: bench_1..bench_6, each the sandbox profile cut
 * down to one country, one fiat, one asset and one payment method (GB, GBP, BTC, card), so that every
 * offers request costs exactly one quote per provider.
 */
import { currencyDictionary } from '../src/domain/currencies';
import { ProviderRegistry } from '../src/providers/registry';
import { createSandboxAdapter } from '../src/providers/sandbox';
import type { SimulatorProfile } from '../src/simulators/kit/profile';
import { SANDBOX_PROFILE } from '../src/simulators/sandbox/profile';

export const BENCH_PROVIDER_CODES = ['bench_1', 'bench_2', 'bench_3', 'bench_4', 'bench_5', 'bench_6'] as const;
export const SLOW_PROVIDER = 'bench_6';
export const SIM_API_KEY = 'sk_bench_sim_key';
export const SIM_WEBHOOK_SECRET = 'bench_sim_webhook_secret';

export function benchProfiles(): SimulatorProfile[] {
  const card = SANDBOX_PROFILE.paymentMethods.find((m) => m.code === 'card');
  if (!card) throw new Error('SANDBOX_PROFILE has no card method');
  return BENCH_PROVIDER_CODES.map((code, i) => ({
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

/** Six sandbox adapters, each pointing at its provider's path of the simulator host at `simUrl`. */
export function benchRegistry(simUrl: string): ProviderRegistry {
  const config = { baseUrl: simUrl, apiKey: SIM_API_KEY, webhookSecret: SIM_WEBHOOK_SECRET };
  return new ProviderRegistry(
    BENCH_PROVIDER_CODES.map((code, i) =>
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
