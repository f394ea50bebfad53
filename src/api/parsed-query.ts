import type { Express, Request } from 'express';

const PARSED = Symbol('parsed query');

interface Parsed {
  /** The query string it was parsed from: a rewritten req.url with another one is parsed again. */
  raw: string;
  query: Request['query'];
}

/**
 * `req.query` parsed once per request. Express 5's getter parses the query string again on every
 * read, and handlers and the parameter checks read it field by field (six parses per offers
 * request). The override sits on the app's request prototype, beside Express's own getter, which
 * it calls; the object it returns is the same on every read, so it is read, not written.
 */
export function parseQueryOnce(app: Express): void {
  const express = Object.getPrototypeOf(app.request) as object;
  if (typeof Object.getOwnPropertyDescriptor(express, 'query')?.get !== 'function') {
    throw new Error('express no longer defines req.query as a getter');
  }
  Object.defineProperty(app.request, 'query', {
    configurable: true,
    enumerable: true,
    get(this: Request & { [PARSED]?: Parsed }): Request['query'] {
      const at = this.url.indexOf('?');
      const raw = at === -1 ? '' : this.url.slice(at + 1);
      const kept = this[PARSED];
      if (kept?.raw === raw) return kept.query;
      const query = Reflect.get(express, 'query', this) as Request['query'];
      this[PARSED] = { raw, query };
      return query;
    },
  });
}
