/**
 * The benchmark's broker API with parts switched off, one at a time or together, in one warm
 * process: each variant is the same buildApi with one setting changed (the part's own switch, as an
 * operator would turn it off), built on first use; `strip` chooses which variant answers from now
 * on. The cost of a part is the full API's CPU time per request minus that of the variant without
 * it (bench/api/dict-profile.ts, the cost tables in bench/README.md).
 */
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import type { AppConfig } from '../../src/config';
import { setMetricsRecording } from '../../src/metrics/metrics';

/** What a variant can leave out, by the name the report prints. */
export const API_PARTS = {
  /** The hot GET routes through Express's router instead of the direct routes (src/api/direct-routes.ts). */
  'direct-routes': (config: AppConfig) => config,
  /** METRICS_ENABLED=false: no HTTP metrics middleware, every metric call a no-op. */
  metrics: (config: AppConfig) => ({ ...config, metrics: { ...config.metrics, enabled: false } }),
  /** RATE_LIMIT_REQUESTS=0: no per-key rate limit. */
  'key-limit': (config: AppConfig) => ({ ...config, rateLimit: { ...config.rateLimit, limit: 0 } }),
  /** RATE_LIMIT_IP_REQUESTS=0: no per-client-IP rate limit. */
  'ip-limit': (config: AppConfig) => ({ ...config, ipRateLimit: { ...config.ipRateLimit, limit: 0 } }),
} satisfies Record<string, (config: AppConfig) => AppConfig>;

export type ApiPart = keyof typeof API_PARTS;

const isPart = (name: string): name is ApiPart => Object.hasOwn(API_PARTS, name);

export class ApiVariants {
  private readonly built = new Map<string, Express>();
  private current: RequestListener;
  /** The full API: every variant's requests and responses have its prototypes (src/api/http-server.ts). */
  readonly base: Express;
  readonly names = Object.keys(API_PARTS);
  readonly strippable = Object.keys(API_PARTS);

  /** `build` makes the API from a configuration, with or without its direct routes. */
  constructor(
    private readonly config: AppConfig,
    private readonly build: (config: AppConfig, directRoutes: boolean) => Express,
  ) {
    this.base = this.variant([]);
    this.current = this.base;
  }

  /** Every request goes to the variant answering now. */
  readonly handler: RequestListener = (req, res) => this.current(req, res);

  /** From now on the variant without `names` answers (none: the full API); resolves to the parts left out. */
  strip(names: readonly string[]): string[] {
    const off = Object.keys(API_PARTS).filter((part): part is ApiPart => isPart(part) && names.includes(part));
    this.current = this.variant(off);
    // Process-wide in the API (buildApi sets it): on for every variant but the one without metrics.
    setMetricsRecording(this.config.metrics.enabled && !off.includes('metrics'));
    return off;
  }

  private variant(off: ApiPart[]): Express {
    const key = off.join(',');
    let app = this.built.get(key);
    if (!app) {
      const config = off.reduce((c, part) => API_PARTS[part](c), this.config);
      app = this.build(config, !off.includes('direct-routes'));
      // The server makes every request with the full API's prototypes: a variant answering with its
      // own would pay Express's change of prototype on each request, which the full API does not.
      // Both prototypes carry the same getters (req.log, req.query, req.fresh), installed by the same
      // code for the same logger and settings.
      if (this.built.size > 0) Object.assign(app, { request: this.base.request, response: this.base.response });
      this.built.set(key, app);
    }
    return app;
  }
}
