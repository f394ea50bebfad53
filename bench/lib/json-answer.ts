import type { ServerResponse } from 'node:http';

/** Answers `body` as JSON with its length, straight through node:http (the benchmark's own servers). */
export function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}
