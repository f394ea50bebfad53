import type { SimulatorFaults } from '../../src/simulators/kit/faults';
import type { OrderWebhookSwitches, SimulatedOrder } from '../../src/simulators/kit/simulated-orders';

/** The simulators' test switches and order lists over HTTP: `${simulators}/<code>/_simulator/...`. */
export class SimulatorControl {
  constructor(private readonly baseUrl: string) {}

  async setFaults(code: string, faults: Partial<SimulatorFaults>): Promise<void> {
    await this.post(`/${code}/_simulator/faults`, faults);
  }

  async setOrderSwitches(code: string, orderId: string, switches: OrderWebhookSwitches): Promise<void> {
    await this.post(`/${code}/_simulator/orders/${encodeURIComponent(orderId)}/faults`, switches);
  }

  async orders(code: string): Promise<SimulatedOrder[]> {
    const response = await fetch(`${this.baseUrl}/${code}/_simulator/orders`, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`GET ${code}/_simulator/orders: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { orders: SimulatedOrder[] }).orders;
  }

  private async post(path: string, body: unknown): Promise<void> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }
}
