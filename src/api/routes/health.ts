import { Router } from 'express';

/** /healthz: the process is alive. /readyz: it can serve, i.e. Temporal answers. */
export function healthRoutes(ready: () => Promise<Record<string, boolean>>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  router.get('/readyz', async (_req, res) => {
    const checks = await ready();
    const ok = Object.values(checks).every(Boolean);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready', checks });
  });
  return router;
}
