import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { SimulatorHost } from '../../src/simulators/kit/host';
import { SandboxSimulator } from '../../src/simulators/sandbox/server';
import { writeJson } from './json-answer';

const QUOTES_PATH = /^\/([^/]+)\/v1\/(sell\/)?quotes$/;

/**
 * The request listener of the offers runs' simulator host: `GET /<code>/v1/quotes` and
 * `GET /<code>/v1/sell/quotes`, the one call every buy or sell offers request makes of each provider,
 * are answered here, with the simulator's own API-key check, latency switch and quote
 * (`SandboxSimulator.quoteAnswer`, `sellQuoteAnswer`), but without Express's routing and
 * response helpers; every other request (catalogues, fault switches, a refused key, and quotes
 * while an outage or unanswered-request switch is on) goes to the host's Express app.
 *
 * Why: the simulated providers stand for services on other machines, yet here they share two cores
 * with the broker under test. Through Express they spent about 1.6 ms of CPU per offers request, as
 * much as the broker itself, and that time was measured as the broker's latency.
 */
export function quoteFront(host: SimulatorHost): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const match = req.method === 'GET' ? QUOTES_PATH.exec(url.pathname) : null;
    const code = match?.[1];
    const simulator = code === undefined ? undefined : host.simulators.get(code);
    if (
      !(simulator instanceof SandboxSimulator) ||
      !simulator.isAuthorized(req.headers.authorization) ||
      simulator.faults.errorRate > 0 ||
      simulator.faults.timeoutRate > 0
    ) {
      host.app(req, res);
      return;
    }
    const answer = () => {
      const query = Object.fromEntries(url.searchParams);
      const { status, body } = match?.[2] ? simulator.sellQuoteAnswer(query) : simulator.quoteAnswer(query);
      writeJson(res, status, body);
    };
    const latencyMs = simulator.faults.latencyMs;
    if (latencyMs > 0) setTimeout(answer, latencyMs);
    else answer();
  };
}
