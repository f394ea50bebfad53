import { signSandboxPayload } from '../../src/simulators/sandbox/signing';

/** A sandbox provider webhook body and its signature header, as the simulator would send it. */
export function signedSandboxWebhook(secret: string, order: Record<string, unknown>, eventId = `evt-${Date.now()}`) {
  const body = JSON.stringify({
    event_id: eventId,
    event_type: 'order.status_changed',
    order: {
      id: 'p-1',
      crypto_amount: '0.001',
      checkout_url: 'http://127.0.0.1/checkout/p-1',
      updated_at: new Date().toISOString(),
      ...order,
    },
  });
  return { body, signature: signSandboxPayload(secret, body, Math.floor(Date.now() / 1000)) };
}
