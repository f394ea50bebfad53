/**
 * /readyz is unauthenticated: anyone can call it as often as they like. Its answer about Temporal
 * is shared for a second (src/api/shared-probe.ts), so a flood of probes is at most one Temporal
 * call a second, not one per request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { buildApi, READY_PROBE_TTL_MS } from '../../src/api/server';
import { createLogger } from '../../src/logging';
import { testConfig } from '../helpers/config';
import { startTemporal } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let server: Server;
let url: string;

beforeAll(async () => {
  env = await startTemporal();
  server = createServer(buildApi(testConfig(), env.client, createLogger('silent', 'test')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await env?.teardown();
});

test('concurrent and successive /readyz calls within a second share one Temporal call', async () => {
  const systemInfo = jest.spyOn(env.client.workflowService, 'getSystemInfo');
  try {
    const started = Date.now();
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => fetch(url)));
    const successive = [];
    for (let i = 0; i < 10; i++) successive.push(await fetch(url));
    for (const res of [...concurrent, ...successive]) {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready', checks: { temporal: true } });
    }
    // At most one Temporal call per window: one when all 30 fitted in it (they take a few ms on a
    // quiet machine); on a loaded one they may span a few windows, never one call per request.
    const windows = Math.ceil((Date.now() - started) / READY_PROBE_TTL_MS);
    expect(systemInfo.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(systemInfo.mock.calls.length).toBeLessThanOrEqual(windows);
    const afterBurst = systemInfo.mock.calls.length;

    // Once the window has passed, the next call asks Temporal again: the answer is not frozen.
    await new Promise((resolve) => setTimeout(resolve, READY_PROBE_TTL_MS + 50));
    expect((await fetch(url)).status).toBe(200);
    expect(systemInfo).toHaveBeenCalledTimes(afterBurst + 1);
  } finally {
    systemInfo.mockRestore();
  }
});
