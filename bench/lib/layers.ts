/**
 * Names the middleware layers of buildApi's Express 5 app (the top level and the /api router) and
 * takes some of them out, and back in, at run time, so that the benchmark can measure what each
 * costs in one warm process (profiling of /api/dict/currencies only: otherwise the app is exactly
 * what buildApi returns).
 */
import type { Express } from 'express';

interface Layer {
  name: string;
  handle: ((...args: unknown[]) => unknown) & { stack?: Layer[] };
  route?: { path?: unknown };
}

interface Stack {
  stack: Layer[];
}

function routePaths(layer: Layer): string[] {
  if (layer.route) return typeof layer.route.path === 'string' ? [layer.route.path] : [];
  return (layer.handle.stack ?? []).flatMap(routePaths);
}

/** A short, stable name for a layer: request-log, auth, rate-limit, health, webhooks, openapi, docs, api, route(/path), ... */
export function layerName(layer: Layer): string {
  const handle = layer.handle;
  if (handle.name === 'rateLimit') return 'rate-limit';
  if (handle.name === 'jsonParser') return 'json';
  if (handle.name === 'notFoundHandler' || handle.name === 'errorHandler') return handle.name;
  if (handle.name === 'requireApiKey') return 'auth';
  if (handle.name === 'requestLog') return 'request-log';
  if (handle.name === 'securityHeaders') return 'security-headers';
  const paths = routePaths(layer);
  if (!layer.route && paths.includes('/dict/currencies')) return 'api';
  if (paths.some((p) => p === '/healthz' || p === '/readyz')) return 'health';
  if (paths.some((p) => p.startsWith('/webhooks'))) return 'webhooks';
  if (paths.some((p) => p.includes('openapi'))) return 'openapi';
  if (!layer.route && paths.length > 0 && paths.every((p) => p === '/')) return 'docs';
  if (layer.route) return `route(${paths.join(',')})`;
  return layer.name || 'anonymous';
}

/** The app's layers and the /api router's, as built; `strip` sets which of them are left out. */
export class LayerSwitch {
  private readonly levels: { owner: Stack; original: Layer[]; names: string[] }[];
  /** Every layer's name, the /api router's inside `api( … )`. */
  readonly names: string[];

  constructor(app: Express) {
    const top = (app as unknown as { router: Stack }).router;
    const topNames = top.stack.map(layerName);
    const apiLayer = top.stack[topNames.indexOf('api')];
    const api = apiLayer?.handle.stack ? (apiLayer.handle as unknown as Stack) : undefined;
    this.levels = [top, ...(api ? [api] : [])].map((owner) => ({ owner, original: [...owner.stack], names: owner.stack.map(layerName) }));
    this.names = topNames.flatMap((name) => (name === 'api' && this.levels[1] ? [`api( ${this.levels[1].names.join(' > ')} )`] : [name]));
  }

  /** Every name a strip may use. */
  get strippable(): string[] {
    return this.levels.flatMap((level) => level.names);
  }

  /** Leaves out the named layers, at either level (all others back in); returns the names left out. */
  strip(names: readonly string[]): string[] {
    const removed = new Set<string>();
    for (const level of this.levels) {
      level.owner.stack = level.original.filter((_layer, i) => {
        if (!names.includes(level.names[i]!)) return true;
        removed.add(level.names[i]!);
        return false;
      });
    }
    return [...removed];
  }
}
