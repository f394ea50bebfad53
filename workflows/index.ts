export { orderIdReservation, providerOrderClaim } from './claim';
export { orderWorkflow } from './order';
export { reconciliationWorkflow, scheduledReconciliationWorkflow } from './reconciliation';
export { reviewWorkflow } from './review';
