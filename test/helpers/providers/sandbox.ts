import { EUR_SELL_MARKET } from '../sell-orders';
import { DEV_SANDBOX_WEBHOOK_SECRET } from '../../../src/config';
import { signSandboxPayload } from '../../../src/simulators/sandbox/signing';
import { nowSeconds, type ProviderTestKit } from './kit';

export const sandboxTestKit: ProviderTestKit<'sandbox'> = {
  secrets: ['apiKey', 'webhookSecret'],
  publishedSigningCredentials: { webhookSecret: DEV_SANDBOX_WEBHOOK_SECRET },
  signWebhook: (body) => ({
    headers: { 'sandbox-signature': signSandboxPayload(DEV_SANDBOX_WEBHOOK_SECRET, body, nowSeconds()) },
    query: '',
  }),
  pollableAfterFirstWebhook: false,
  sale: EUR_SELL_MARKET,
};
