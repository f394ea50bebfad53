import { parse } from 'node:querystring';
import express from 'express';
import request from 'supertest';
import { parseQueryOnce } from '../../../src/api/parsed-query';

function countingApp() {
  const app = express();
  const counter = { parses: 0 };
  app.set('query parser', (raw: string) => {
    counter.parses++;
    return parse(raw);
  });
  parseQueryOnce(app);
  return { app, counter };
}

test('reads of req.query within a request share one parse', async () => {
  const { app, counter } = countingApp();
  app.get('/q', (req, res) => {
    res.json({ a: req.query.a, again: req.query.a, same: req.query === req.query });
  });
  const res = await request(app).get('/q?a=1');
  expect(res.body).toEqual({ a: '1', again: '1', same: true });
  expect(counter.parses).toBe(1);
  await request(app).get('/q?a=2').expect(200, { a: '2', again: '2', same: true });
  expect(counter.parses).toBe(2);
});

test('a rewritten query string is parsed afresh', async () => {
  const { app, counter } = countingApp();
  app.use((req, _res, next) => {
    expect(req.query.a).toBe('1');
    req.url = '/q?a=rewritten';
    next();
  });
  app.get('/q', (req, res) => {
    res.json({ a: req.query.a });
  });
  await request(app).get('/q?a=1').expect(200, { a: 'rewritten' });
  expect(counter.parses).toBe(2);
});

test('a path rewrite that keeps the query string does not parse again', async () => {
  const { app, counter } = countingApp();
  const api = express.Router();
  api.get('/q', (req, res) => {
    res.json({ a: req.query.a });
  });
  app.use((req, _res, next) => {
    expect(req.query.a).toBe('1');
    next();
  });
  app.use('/api', api);
  await request(app).get('/api/q?a=1').expect(200, { a: '1' });
  expect(counter.parses).toBe(1);
});
