import { eventually } from './http';
import type { IntegratorReceiver, ReceivedWebhook } from './integrator-receiver';
import { MARKETS, type MarketName } from './markets';
import { draftOrder, waitForStatus, type OrderDraft } from './orders';
import { KIT_PROVIDER_CODES, PROVIDER_TEST_KITS, type RealProviderCode } from './providers';

export { MARKETS } from './markets';

export interface ProviderJourney {
  code: RealProviderCode;
  market: MarketName;
  paymentMethod: string;
}

const isReal = (code: (typeof KIT_PROVIDER_CODES)[number]): code is RealProviderCode => code !== 'sandbox';

/** One purchase per real provider of the manifest (each provider's test kit names its market and payment method). */
export const JOURNEYS: readonly ProviderJourney[] = KIT_PROVIDER_CODES.filter(isReal).map((code) => ({
  code,
  ...PROVIDER_TEST_KITS[code].purchase,
}));

/**
 * The order a customer on this machine places: `ip` is the address the customer's browser reaches
 * the provider's page from (Mercuryo signs its widget URL for it).
 */
export function journeyOrder(journey: ProviderJourney): OrderDraft {
  return draftOrder({ provider_code: journey.code, payment_method: journey.paymentMethod, ip: '127.0.0.1', ...MARKETS[journey.market] });
}

/** The integrator's view once the order is paid: the status endpoint and its signed webhooks both say complete. */
export async function expectCompleteForIntegrator(
  apiUrl: string,
  receiver: IntegratorReceiver,
  code: string,
  orderId: string,
): Promise<ReceivedWebhook[]> {
  const complete = await waitForStatus(apiUrl, code, orderId, 'complete');
  const delivered = await eventually(() => {
    const received = receiver.delivered(orderId);
    return Promise.resolve(received.some((w) => w.body.data.status === 'complete') ? received : undefined);
  }, `a complete webhook for ${orderId}`);
  expect(delivered.every((w) => w.verified && w.body.type === 'order.status_changed')).toBe(true);
  expect(delivered.map((w) => w.body.data.sequence)).toEqual(delivered.map((_, i) => i + 1));
  expect(delivered[0]!.body.data.status).toBe('created');
  expect(delivered.at(-1)!.body.data).toEqual({ ...complete, sequence: delivered.length });
  return delivered;
}
