export { orderIdReservation, providerOrderClaim } from './claim';
export { orderWorkflow } from './order';
export { sellOrderWorkflow } from './sell-order';
export { reconciliationWorkflow, scheduledReconciliationWorkflow } from './reconciliation';
export { reviewWorkflow } from './review';
