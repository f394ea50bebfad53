import { Router } from 'express';
import type { OperatorDirectory } from '../../config/operators';
import { requireOperatorKey } from '../operator-auth';
import { notFoundHandler } from '../problem';
import { operatorReviewRoutes, type OperatorReviewDependencies } from './operator-reviews';
import { operatorSummaryRoutes, type OperatorSummaryDependencies } from './operator-summaries';

/** What the operator API works with (docs/operations.md, "Review queue"). */
export interface OperatorApiDependencies extends OperatorReviewDependencies {
  directory: OperatorDirectory;
  /** GET /api/operator/summaries/daily (./operator-summaries.ts). */
  summaries: OperatorSummaryDependencies;
}

/**
 * /api/operator: the operator API, for the team running the broker, behind operator keys of its own
 * (never an integrator's). Mounted before the integrator key check, so that an operator key is never
 * taken for an integrator's and an integrator's key opens nothing here.
 */
export function operatorRoutes(api: Router, deps: OperatorApiDependencies): void {
  const router = Router();
  router.use(requireOperatorKey(deps.directory));
  operatorReviewRoutes(router, deps);
  operatorSummaryRoutes(router, deps.summaries);
  router.use(notFoundHandler);
  api.use('/operator', router);
}
