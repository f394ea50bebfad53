import type { PaybisSimulatorKeys } from '../../providers/paybis/config';
import type { SimulatorOptions } from '../kit/options';

/** The partner's API key and public key (to check its calls), and Paybis's own webhook signing key. */
export type PaybisSimulatorCredentials = PaybisSimulatorKeys;

export type PaybisSimulatorOptions = SimulatorOptions<PaybisSimulatorCredentials>;
