export { orderWorkflow } from './order';
