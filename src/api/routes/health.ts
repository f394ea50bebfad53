import type { IRouter } from 'express';

/** /healthz: the process is alive. /readyz: it can serve, i.e. Temporal answers. */
export function healthRoutes(router: IRouter, ready: () => Promise<Record<string, boolean>>): void {
  router.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  router.get('/readyz', async (_req, res) => {
    const checks = await ready();
    const ok = Object.values(checks).every(Boolean);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready', checks });
  });
}
