import type { SimulatorOptions } from '../kit/options';
import type { BanxaSigningKey } from './signing';

/** The partner's API key and secret: the key authenticates calls, the pair signs webhooks. */
export type BanxaSimulatorCredentials = BanxaSigningKey;

export type BanxaSimulatorOptions = SimulatorOptions<BanxaSimulatorCredentials>;
