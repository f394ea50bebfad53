import express, { type Router } from 'express';
import type { Logger } from '../../logging';
import { loggableProviderOrderId } from '../../domain/provider-order-id';
import {
  providerWebhooksDuplicate,
  providerWebhooksIgnored,
  providerWebhooksReceived,
  providerWebhooksRefused,
  providerWebhooksSignalled,
  providerWebhooksVerified,
} from '../../metrics/metrics';
import type { OrderService } from '../../orders/service';
import { cutDescriptiveTexts, outOfBoundsMessage, PROVIDER_TEXT_LIMITS, textOutOfBounds } from '../../providers/kit/report-bounds';
import type { ProviderRegistry } from '../../providers/registry';
import type { SellWebhookEvent } from '../../providers/sell-types';
import {
  IgnoredWebhookError,
  ProviderRejectedError,
  ProviderUnavailableError,
  WebhookVerificationError,
  type ProviderWebhookEvent,
} from '../../providers/types';
import { methodNotAllowed, ProblemError } from '../problem';
import type { SignalledEvent, SignalledEvents } from '../signalled-events';
import { forOrder } from '../tracing';

/**
 * Provider webhooks: the raw body is kept for the signature check, and a verified event is signalled
 * to the order's workflow before the broker answers 2xx, so an acknowledged event is never lost. An
 * event already signalled is acknowledged without a second signal, so that replaying a webhook
 * cannot grow the workflow's history. A verified event the broker does not act on (another kind of
 * event) is acknowledged without a signal, so that the provider does not retry it as if refused.
 */
export function webhookRoutes(router: Router, providers: ProviderRegistry, orders: OrderService, signalled: SignalledEvents): void {
  router
    .route('/webhooks/:provider_code')
    .post(express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
      const adapter = providers.get(String(req.params.provider_code));
      if (!adapter) throw new ProblemError('not_found', 'Unknown provider.');
      const provider = adapter.info.code;
      providerWebhooksReceived.inc({ provider });
      const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const webhook = { headers: req.headers, rawBody, query: stringQuery(req.query) };
      // A provider with one webhook URL for both sides: the message's own say routes it; the parser verifies it.
      const sellAdapter = adapter.sell?.isSellWebhook(webhook) ? adapter.sell : undefined;
      let event: ProviderWebhookEvent | SellWebhookEvent;
      try {
        event = sellAdapter ? await sellAdapter.parseWebhook(webhook) : await adapter.parseWebhook(webhook);
      } catch (err) {
        if (err instanceof IgnoredWebhookError) {
          providerWebhooksVerified.inc({ provider });
          providerWebhooksIgnored.inc({ provider });
          // The id comes from the signed body before any bound is checked: logged cut to the order id's bound.
          const orderId = err.orderId?.slice(0, PROVIDER_TEXT_LIMITS.orderId);
          req.log.info({ provider, orderId, reason: err.message }, 'provider webhook acknowledged: nothing to act on');
          res.status(200).json({ received: true });
          return;
        }
        if (err instanceof WebhookVerificationError) {
          providerWebhooksRefused.inc({ provider, reason: 'invalid_signature' });
          req.log.warn({ provider: adapter.info.code, reason: err.message }, 'provider webhook refused');
          throw new ProblemError('invalid_signature', 'The webhook signature does not verify.');
        }
        // A verified event that names only an id to look up (Banxa), where the lookup fails: the
        // provider retries an outage; an order the provider does not know is refused.
        if (err instanceof ProviderUnavailableError) {
          providerWebhooksRefused.inc({ provider, reason: 'provider_unavailable' });
          req.log.warn({ provider: adapter.info.code, reason: err.message }, 'provider webhook not read: provider unavailable');
          throw new ProblemError(
            'provider_unavailable',
            'The provider cannot be reached to read this event; send it again later.',
            undefined,
            { 'Retry-After': '30' },
          );
        }
        if (err instanceof ProviderRejectedError) {
          providerWebhooksRefused.inc({ provider, reason: 'provider_rejected' });
          req.log.warn({ provider: adapter.info.code, reason: err.message }, 'provider webhook not read: the provider refused the lookup');
          throw new ProblemError('provider_rejected', 'The provider does not know the order this event names.');
        }
        throw err;
      }
      providerWebhooksVerified.inc({ provider });
      // Checked before anything keeps the event (the signalled-events store, the order): a description
      // too long (the failure reason) is cut to its bound; any other text the order cannot hold is
      // refused for good, as sending it again cannot change it.
      event = cutDescriptiveTexts(event);
      const outOfBounds = textOutOfBounds(event);
      if (outOfBounds) {
        providerWebhooksRefused.inc({ provider, reason: 'out_of_bounds' });
        req.log.warn({ provider, reason: outOfBoundsMessage(outOfBounds) }, 'provider webhook refused: a text is out of bounds');
        throw new ProblemError('event_out_of_bounds', `The event's ${outOfBoundsMessage(outOfBounds)}; the broker does not take it.`);
      }
      forOrder(res, event.orderId);
      const ref: SignalledEvent = { provider: adapter.info.code, orderId: event.orderId, eventId: event.eventId };
      if (await seen(signalled, ref, req.log)) {
        providerWebhooksDuplicate.inc({ provider });
        req.log.debug(ref, 'provider webhook already signalled; acknowledged without a signal');
      } else {
        const claims = adapter.claimsProviderOrders === true;
        const outcome = sellAdapter
          ? await orders.signalSellEvent(adapter.info.code, event as SellWebhookEvent, claims)
          : await orders.signalProviderEvent(adapter.info.code, event as ProviderWebhookEvent, claims);
        if (outcome === 'delivered') providerWebhooksSignalled.inc({ provider });
        else providerWebhooksRefused.inc({ provider, reason: outcome });
        if (outcome === 'unknown_order') req.log.warn(ref, 'webhook for an unknown or closed order');
        else {
          if (outcome !== 'delivered')
            req.log.warn(
              { ...ref, outcome, providerOrderId: loggableProviderOrderId(event.providerOrderId) },
              'provider webhook not signalled: not about this order',
            );
          await remember(signalled, ref, req.log);
        }
      }
      res.status(200).json({ received: true });
    })
    .all(methodNotAllowed(['POST']));
}

/** A store that cannot answer must not lose an event: it is signalled, and the workflow drops a duplicate. */
async function seen(signalled: SignalledEvents, ref: SignalledEvent, log: Logger): Promise<boolean> {
  try {
    return await signalled.seen(ref);
  } catch (err) {
    log.warn({ ...ref, err }, 'signalled-events store failed; signalling the webhook without the duplicate check');
    return false;
  }
}

async function remember(signalled: SignalledEvents, ref: SignalledEvent, log: Logger): Promise<void> {
  try {
    await signalled.remember(ref);
  } catch (err) {
    log.warn({ ...ref, err }, 'signalled-events store failed; a replay of this webhook will be signalled again');
  }
}

function stringQuery(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string'));
}
