/**
 * Child-process entry of the API benchmark (bench/api.ts forks it once per server, so that no server
 * shares an event loop with the load tool or with another server).
 *
 *   role "api"   the real broker API (buildApi) on testConfig() (METRICS_ENABLED from the child's
 *                environment), an unreachable Temporal client and a silent logger; with `simUrl`, the
 *                benchmark sandbox providers of `width` (bench/providers.ts) pointing at that host, labelled like the configured ones;
 *                on {type:'strip'}, it leaves some middleware out (profiling only); on {type:'memory'},
 *                it answers the bytes its heap has allocated so far (bench/lib/memory.ts), and on
 *                {type:'heap-sampling'} it runs V8's sampling heap profiler (bench/offers-memory.ts)
 *   role "bare"  a bare Express app whose one GET handler answers `body` with `contentType`
 *   role "sim"   a SimulatorHost with the benchmark profiles of `width` (bench/providers.ts), its buy and sell quote routes
 *                answered by a plain node:http front (bench/lib/quote-front.ts)
 *   role "fanout" the offers runs' floor: a bare fan-out to the simulator host (bench/lib/bare-fanout.ts)
 *
 * The parent sends {type:'start', spec}. Everything binds 127.0.0.1 on an ephemeral port. The child reports {type:'ready', port} over IPC,
 * exits on {type:'stop'}, and exits by itself when the parent goes away (IPC disconnect).
 */
import type { AddressInfo } from 'node:net';
import { createServer, type RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { ApiServer } from '../src/api/http-server';
import { ApiVariants } from './lib/api-variants';
import { AllocationMeter, HeapSampler } from './lib/memory';
import type { ChildCommand, ChildMessage, ServerSpec } from './lib/protocol';

function send(message: ChildMessage): void {
  process.send?.(message);
}

interface Handler {
  handler: RequestListener;
  /** role "api": the app whose request and response prototypes the server makes its objects with (src/api/http-server.ts). */
  api?: Express;
  layers?: ApiVariants;
  /** role "api": its heap's allocation since it was built. */
  meter?: AllocationMeter;
  stop?: () => void;
}

async function buildHandler(spec: ServerSpec): Promise<Handler> {
  switch (spec.role) {
    case 'bare': {
      const app = express();
      app.disable('x-powered-by');
      const { body, contentType, path } = spec;
      app.get(path, (_req, res) => {
        res.setHeader('Content-Type', contentType);
        res.send(body);
      });
      // BENCH_BARE_SERVER=api: the bare app on the API's kind of server (src/api/http-server.ts), for
      // the comparison with the server's own gain taken out.
      return process.env.BENCH_BARE_SERVER === 'api' ? { handler: app, api: app } : { handler: app };
    }
    case 'api': {
      process.env.LOG_LEVEL = 'silent';
      const [{ buildApi }, { testConfig }, { createTemporalClient }, { createLogger }] = await Promise.all([
        import('../src/api/server'),
        import('../test/helpers/config'),
        import('../src/temporal/connection'),
        import('../src/logging'),
      ]);
      // Every request is counted as usual, but the budget is out of reach: the runs measure the
      // cost of counting, not of refusing (the dictionary runs alone make some 300,000 requests a minute).
      // METRICS_ENABLED as the parent set it for this child (the offers runs measure the API without metrics too).
      const config = {
        ...testConfig({}, { METRICS_ENABLED: process.env.METRICS_ENABLED }),
        rateLimit: { limit: 1_000_000_000, windowMs: 60_000 },
        // The offers runs measure one integrator at 50 connections: its admission is out of reach too.
        integratorAdmission: { concurrency: 0, queued: 1 },
      };
      const client = createTemporalClient({ address: '127.0.0.1:1', namespace: 'default' });
      const logger = createLogger('silent', 'bench-api');
      const providers = spec.simUrl ? (await import('./providers')).benchRegistry(spec.simUrl, spec.width) : undefined;
      const variants = new ApiVariants(config, (variant, directRoutes) =>
        buildApi(variant, client, logger, providers ? { providers, directRoutes } : { directRoutes }),
      );
      return { handler: variants.handler, api: variants.base, layers: variants, meter: new AllocationMeter() };
    }
    case 'sim': {
      const [
        { SimulatorHost },
        { SandboxSimulator },
        { benchProfiles, benchSellProfile, SIM_API_KEY, SIM_WEBHOOK_SECRET },
        { quoteFront },
      ] = await Promise.all([
        import('../src/simulators/kit/host'),
        import('../src/simulators/sandbox/server'),
        import('./providers'),
        import('./lib/quote-front'),
      ]);
      const host = new SimulatorHost(
        benchProfiles(spec.width).map(
          (profile) =>
            new SandboxSimulator({
              apiKey: SIM_API_KEY,
              webhookSecret: SIM_WEBHOOK_SECRET,
              profile,
              sellProfile: benchSellProfile(),
              // No orders are created in the benchmark, so no webhook is ever sent.
              webhookUrl: 'http://127.0.0.1:1',
              publicUrl: 'http://127.0.0.1:1',
            }),
        ),
      );
      for (const [code, latencyMs] of Object.entries(spec.latencyMs ?? {})) host.get(code).faults.latencyMs = latencyMs;
      return { handler: quoteFront(host), stop: () => host.stop() };
    }
    case 'fanout': {
      const [{ bareFanout }, { SIM_API_KEY }] = await Promise.all([import('./lib/bare-fanout'), import('./providers')]);
      return { handler: bareFanout(spec.simUrl, spec.codes, SIM_API_KEY, spec.query) };
    }
  }
}

async function main(spec: ServerSpec): Promise<void> {
  const { handler, api, layers, meter, stop } = await buildHandler(spec);
  let sampler: HeapSampler | undefined;
  // The API's server as production makes it (src/api/http-server.ts); the others plain.
  const server = api ? new ApiServer().serve(api, handler).server : createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // Many short-lived benchmark connections: keep them open as long as the load tool wants.
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    stop?.();
    server.closeAllConnections();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on('message', (message: ChildCommand) => {
    if (message.type === 'stop') shutdown();
    if (message.type === 'strip') {
      if (!layers) send({ type: 'error', message: 'only the API has layers to strip' });
      else send({ type: 'stripped', removed: layers.strip(message.names) });
    }
    if (message.type === 'memory') {
      if (!meter) send({ type: 'error', message: 'only the API measures its allocation' });
      else send({ type: 'memory', reading: meter.read() });
    }
    if (message.type === 'heap-sampling') {
      sampler ??= new HeapSampler();
      const done = message.action === 'start' ? sampler.start().then(() => []) : sampler.stop(message.byFile);
      done.then(
        (sites) => send({ type: 'heap-sites', sites: sites.slice(0, 60) }),
        (err: unknown) => send({ type: 'error', message: String(err) }),
      );
    }
  });
  process.on('SIGTERM', shutdown);

  send({ type: 'ready', port: (server.address() as AddressInfo).port, layers: layers?.names, strippable: layers?.strippable });
}

// The spec comes over IPC (a response body can be larger than a command-line argument may be).
process.once('message', (message: ChildCommand) => {
  if (message.type !== 'start') return;
  main(message.spec).catch((err: unknown) => {
    send({ type: 'error', message: (err as Error).stack ?? String(err) });
    process.exit(1);
  });
});
// The parent's Ctrl-C reaches the whole process group; the parent stops us in order.
process.on('SIGINT', () => undefined);
process.once('disconnect', () => process.exit(0));
