import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { request } from 'undici';
import { writeJson } from './json-answer';

/**
 * The floor of the offers runs, measured in the same run: a node:http handler that asks the same
 * simulated providers for the same quote (undici, keep-alive, as the broker's adapters do), parses
 * each answer and answers all of them as one JSON object. No Express, no validation, no catalogue, no
 * deadline, no decimal arithmetic, nothing remembered: what any fan-out to five providers that answer
 * in 100 ms costs on this machine, its queueing and its jitter included.
 */
export function bareFanout(simUrl: string, codes: readonly string[], apiKey: string, query: string): RequestListener {
  const urls = codes.map((code) => [code, `${simUrl}/${code}/v1/quotes?${query}`] as const);
  const headers = { accept: 'application/json', authorization: `Bearer ${apiKey}` };
  const ask = async (url: string): Promise<unknown> => {
    const response = await request(url, { headers });
    return JSON.parse(await response.body.text());
  };
  return (_req: IncomingMessage, res: ServerResponse) => {
    Promise.all(urls.map(async ([code, url]) => [code, await ask(url)] as const))
      .then((answers) => writeJson(res, 200, Object.fromEntries(answers)))
      .catch((err: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
  };
}
