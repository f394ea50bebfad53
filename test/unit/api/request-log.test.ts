/** Request ids, the lazily made per-request logger and the access log lines. */
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { requestLogging } from '../../../src/api/request-log';

function appLoggingTo(lines: Record<string, unknown>[], level = 'info') {
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const app = express();
  requestLogging(app, logger);
  app.get('/logs', (req, res) => {
    req.log.info({ step: 1 }, 'first');
    req.log.info({ step: 2 }, 'second');
    res.json({ id: req.id });
  });
  app.get('/quiet', (req, res) => void res.json({ id: req.id }));
  return app;
}

describe('requestLogging', () => {
  test('req.log binds the request id; one child logger serves the whole request', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    const res = await request(app).get('/logs').set('X-Request-Id', 'trace-42');
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(res.body).toEqual({ id: 'trace-42' });
    const own = lines.filter((l) => l.step !== undefined);
    expect(own.map((l) => [l.msg, l.reqId])).toEqual([
      ['first', 'trace-42'],
      ['second', 'trace-42'],
    ]);
  });

  test('each request gets its own id: concurrent requests do not share a child logger', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    const answers = await Promise.all(['a-1', 'b-2', 'c-3'].map((id) => request(app).get('/logs').set('X-Request-Id', id)));
    expect(answers.map((r) => r.headers['x-request-id'])).toEqual(['a-1', 'b-2', 'c-3']);
    for (const id of ['a-1', 'b-2', 'c-3']) {
      expect(lines.filter((l) => l.reqId === id && l.step !== undefined)).toHaveLength(2);
    }
  });

  test('an unusable X-Request-Id is replaced by a UUID', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    const res = await request(app).get('/quiet').set('X-Request-Id', 'not ok; has spaces');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(res.body.id).toBe(res.headers['x-request-id']);
  });

  test('the access log line has the id, method, path, redacted query and status, at info for 2xx and warn for 4xx', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines);
    await request(app).get('/quiet?x=1').set('X-Request-Id', 'ok-1');
    await request(app).get('/missing').set('X-Request-Id', 'nf-1');
    const access = lines.filter((l) => l.msg === 'request completed');
    expect(access).toEqual([
      expect.objectContaining({
        level: 30,
        reqId: 'ok-1',
        req: { method: 'GET', path: '/quiet', query: 'x=[redacted]' },
        res: { statusCode: 200 },
      }),
      expect.objectContaining({ level: 40, reqId: 'nf-1', req: { method: 'GET', path: '/missing' }, res: { statusCode: 404 } }),
    ]);
    expect(access.every((l) => typeof l.responseTime === 'number')).toBe(true);
  });

  test('at level error no access line is written', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines, 'error');
    await request(app).get('/missing');
    await request(app).get('/quiet');
    expect(lines).toEqual([]);
  });
});
