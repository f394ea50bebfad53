export { orderIdReservation, providerOrderClaim } from './claim';
export { orderWorkflow } from './order';
