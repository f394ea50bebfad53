/** Every workflow of the bench-workers child of `npm run bench:orders` (one bundle): the baseline and the floors. */
export { baselineWorkflow } from './workflow';
export { floorCreateWorkflow, floorWorkflow } from './floor';
