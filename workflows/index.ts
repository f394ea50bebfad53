export { providerOrderClaim } from './claim';
export { orderWorkflow } from './order';
