import { alchemypayTestKit } from './alchemypay';
import { banxaTestKit } from './banxa';
import { coinbaseTestKit } from './coinbase';
import type { ProviderTestKits } from './kit';
import { mercuryoTestKit } from './mercuryo';
import { moonpayTestKit } from './moonpay';
import { onrampMoneyTestKit } from './onramp_money';
import { paybisTestKit } from './paybis';
import { rampTestKit } from './ramp';
import { revolutTestKit } from './revolut';
import { sandboxTestKit } from './sandbox';
import { transakTestKit } from './transak';

export type { ForgedWebhook, ProviderTestKit, RealProviderCode, RealProviderTestKit, WebhookSigning } from './kit';

/**
 * Every provider's test kit, keyed by the codes of the provider manifest (src/providers/manifest.ts)
 * and in its order: a provider added to the manifest without a kit here does not compile, nor does a
 * kit here for a provider the manifest dropped. So its keys are the written-out list of providers
 * that tests compare the broker's own lists with.
 */
export const PROVIDER_TEST_KITS: ProviderTestKits = {
  sandbox: sandboxTestKit,
  alchemypay: alchemypayTestKit,
  banxa: banxaTestKit,
  coinbase: coinbaseTestKit,
  mercuryo: mercuryoTestKit,
  moonpay: moonpayTestKit,
  onramp_money: onrampMoneyTestKit,
  paybis: paybisTestKit,
  ramp: rampTestKit,
  revolut: revolutTestKit,
  transak: transakTestKit,
};

/** The codes of PROVIDER_TEST_KITS, in the manifest's order. */
export const KIT_PROVIDER_CODES = Object.keys(PROVIDER_TEST_KITS) as (keyof ProviderTestKits)[];
