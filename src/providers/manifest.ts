import type { z } from 'zod';
import { alchemypayProvider } from './alchemypay';
import { banxaProvider } from './banxa';
import { coinbaseProvider } from './coinbase';
import type { ProviderDescriptor } from './descriptor';
import type { ProviderResolution } from './kit/config';
import { mercuryoProvider } from './mercuryo';
import { moonpayProvider } from './moonpay';
import { onrampMoneyProvider } from './onramp_money';
import { paybisProvider } from './paybis';
import { rampProvider } from './ramp';
import { revolutProvider } from './revolut';
import { sandboxProvider } from './sandbox';
import { transakProvider } from './transak';

/**
 * The one list of providers: configuration, the registry, the simulator host and the tests all
 * read it. The generic sandbox first, then the real providers by code.
 */
export const PROVIDERS = [
  sandboxProvider,
  alchemypayProvider,
  banxaProvider,
  coinbaseProvider,
  mercuryoProvider,
  moonpayProvider,
  onrampMoneyProvider,
  paybisProvider,
  rampProvider,
  revolutProvider,
  transakProvider,
] as const satisfies readonly ProviderDescriptor[];

type Provider = (typeof PROVIDERS)[number];
export type ProviderCode = Provider['info']['code'];

export const PROVIDER_CODES: readonly ProviderCode[] = PROVIDERS.map((provider) => provider.info.code);

type ConfigOf<P> = P extends ProviderDescriptor<string, z.ZodRawShape, infer C> ? C : never;

// A type alias, not an interface, so that Object.entries sees the resolutions' own types.
/** How each provider runs, by code, each with its own configuration type. */
export type ProviderResolutions = { [P in Provider as P['info']['code']]: ProviderResolution<ConfigOf<P>> };

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every provider's environment variables in one zod shape (the variables of two providers never overlap). */
export const PROVIDERS_ENV_SHAPE = Object.assign({}, ...PROVIDERS.map((provider) => provider.env.shape)) as Intersection<
  Provider['env']['shape']
>;
