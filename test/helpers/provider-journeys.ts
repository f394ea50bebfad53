import type { RealProviderCode } from './forged-webhooks';
import { eventually } from './http';
import type { IntegratorReceiver, ReceivedWebhook } from './integrator-receiver';
import { draftOrder, EUR, GBP, USD, waitForStatus, type OrderDraft } from './orders';

/** Where the customer is: US markets need a state. */
export const MARKETS = {
  'US-CA': { country_code: 'US', state_code: 'CA', from_currency: USD },
  'US-TX': { country_code: 'US', state_code: 'TX', from_currency: USD },
  GB: { country_code: 'GB', from_currency: GBP },
  DE: { country_code: 'DE', from_currency: EUR },
} as const;

export interface ProviderJourney {
  code: RealProviderCode;
  market: keyof typeof MARKETS;
  paymentMethod: string;
}

/** One purchase per real provider of the manifest, spread over the markets and the payment methods they take. */
const PURCHASES: { [C in RealProviderCode]: Omit<ProviderJourney, 'code'> } = {
  moonpay: { market: 'US-CA', paymentMethod: 'card' },
  transak: { market: 'GB', paymentMethod: 'bank_transfer' },
  banxa: { market: 'DE', paymentMethod: 'sepa' },
  mercuryo: { market: 'GB', paymentMethod: 'card' },
  ramp: { market: 'US-TX', paymentMethod: 'card' },
};

export const JOURNEYS: readonly ProviderJourney[] = Object.entries(PURCHASES).map(([code, purchase]) => ({
  code: code as RealProviderCode,
  ...purchase,
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
