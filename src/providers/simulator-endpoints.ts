/** Where a provider without credentials finds its simulator, and where the provider calls the broker back. */
export interface SimulatorEndpoints {
  /** The simulator host as the broker reaches it (SANDBOX_URL); absent when there is none. */
  simulatorUrl?: string;
  /** The simulator host as a customer's browser reaches it (SANDBOX_PUBLIC_URL), for widget links; simulatorUrl when absent. */
  simulatorPublicUrl?: string;
  /** The broker's public base URL, which providers call back. */
  brokerPublicUrl: string;
  /** SIMULATOR_SECRET: the simulators' credentials derive from it; the fixed development ones when absent. */
  simulatorSecret?: string;
}
