export {
  OnrampClient,
  compareDecimals,
  sortOffers,
  sortSellOffers,
  DAY_MS,
  type OfferOrder,
  type OnrampClientOptions,
  type WaitOptions,
} from './client.js';
export { OperatorClient, type OperatorClientOptions } from './operator.js';
export { ProblemError, isProblemError, type ClientProblemCode, type ProblemCode } from './problem.js';
export { retryAfterSeconds, type ConnectionOptions } from './http.js';
export {
  MAX_WEBHOOK_BODY_BYTES,
  isSellOrderEvent,
  verifyWebhook,
  webhookMiddleware,
  type OrderStatusChangedEvent,
  type SellOrderStatusChangedEvent,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookTestEvent,
} from './webhooks.js';
export type * from './types.js';
export type { components, operations, paths } from './openapi.js';
