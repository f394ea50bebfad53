/**
 * The demo's one door to the broker: the `@onramp-broker/client` package. In your own app write
 * `from '@onramp-broker/client'`; inside this repository the demo imports the package's source, so it
 * runs under tsx and jest without building the package's dist/ first.
 */
export { OnrampClient, ProblemError, webhookMiddleware } from '../../clients/typescript/src/index.js';
export type {
  Country,
  Currency,
  Deposit,
  LeftOutProvider,
  Order,
  RankedOffer,
  SellOrder,
  ServedCountry,
  WebhookEvent,
} from '../../clients/typescript/src/index.js';
