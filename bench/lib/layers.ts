/**
 * Names the top-level middleware layers of an Express 5 app and takes some of them out, and back in,
 * at run time, so that the benchmark can measure what each costs in one warm process (profiling of
 * /api/dict/currencies only: otherwise the app is exactly what buildApi returns).
 */
import type { Express } from 'express';

interface Layer {
  name: string;
  handle: ((...args: unknown[]) => unknown) & { logger?: unknown; resetKey?: unknown; stack?: Layer[] };
  route?: { path?: unknown };
}

function routePaths(layer: Layer): string[] {
  return (layer.handle.stack ?? []).flatMap((l) => (l.route && typeof l.route.path === 'string' ? [l.route.path] : []));
}

/** A short, stable name for a layer of buildApi's app: pino-http, helmet, json, auth, rate-limit, health, webhooks, ... */
export function layerName(layer: Layer): string {
  const handle = layer.handle;
  if (typeof handle.logger === 'object' && handle.logger !== null) return 'pino-http';
  if (handle.name === 'helmetMiddleware') return 'helmet';
  if (typeof handle.resetKey === 'function') return 'rate-limit';
  if (handle.name === 'jsonParser') return 'json';
  if (handle.name === 'notFoundHandler' || handle.name === 'errorHandler') return handle.name;
  const source = Function.prototype.toString.call(handle);
  if (source.includes('x-api-key') && source.includes('authenticate')) return 'auth';
  const paths = routePaths(layer);
  if (paths.includes('/healthz')) return 'health';
  if (paths.some((p) => p.startsWith('/webhooks'))) return 'webhooks';
  if (paths.some((p) => p.includes('openapi'))) return 'openapi';
  if (paths.length > 0) return `router(${paths.slice(0, 2).join(',')}${paths.length > 2 ? ',…' : ''})`;
  return layer.name || 'anonymous';
}

/** The app's top-level layers, as built; `strip` sets which of them are left out. */
export class LayerSwitch {
  private readonly router: { stack: Layer[] };
  private readonly original: Layer[];
  readonly names: string[];

  constructor(app: Express) {
    this.router = (app as unknown as { router: { stack: Layer[] } }).router;
    this.original = [...this.router.stack];
    this.names = this.original.map(layerName);
  }

  /** Leaves out the named layers (all others back in); returns the names of those left out. */
  strip(names: readonly string[]): string[] {
    const removed: string[] = [];
    this.router.stack = this.original.filter((layer, i) => {
      if (!names.includes(this.names[i]!)) return true;
      removed.push(this.names[i]!);
      return false;
    });
    return removed;
  }
}
