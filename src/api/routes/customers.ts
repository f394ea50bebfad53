import type { Router } from 'express';
import type { ReturningCustomers } from '../../ranking/returning-customers';
import { integratorOf } from '../auth';
import { methodNotAllowed, REQUEST_PARSE, validationProblem } from '../problem';
import { CustomerPathSchema } from '../schemas';

/**
 * DELETE /api/on_ramp/customers/{external_user_id}: forgets what the broker keeps of the caller's
 * user for ranking (the providers it completed an order with) and blocks it from being rebuilt
 * from older orders. Only the caller's own user: the integrator is the API key's. 204 whether or
 * not anything was kept, so a repeated call answers the same.
 */
export function customerRoutes(router: Router, customers: ReturningCustomers): void {
  router
    .route('/on_ramp/customers/:external_user_id')
    .delete(async (req, res) => {
      const integrator = integratorOf(req);
      const parsed = CustomerPathSchema.safeParse(req.params, REQUEST_PARSE);
      if (!parsed.success) throw validationProblem(parsed.error, 'path');
      await customers.forget(integrator.id, parsed.data.external_user_id);
      res.status(204).end();
    })
    .all(methodNotAllowed(['DELETE']));
}
