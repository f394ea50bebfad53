import type { Express, Request } from 'express';

/**
 * Only an answer with a validator (ETag or Last-Modified) is ever "fresh". Express's `req.fresh`,
 * which `res.send` turns into a bodiless 304, holds any 2xx GET fresh when the request says
 * `If-None-Match: *`. That would swallow answers computed for this request alone, such as offers,
 * which are quoted and remembered all the same; those carry `no-store` and no validator, and are
 * not conditional resources. The dictionaries set an ETag and keep Express's check.
 */
export function freshOnlyWithValidator(app: Express): void {
  const express = Object.getPrototypeOf(app.request) as object;
  if (typeof Object.getOwnPropertyDescriptor(express, 'fresh')?.get !== 'function') {
    throw new Error('express no longer defines req.fresh as a getter');
  }
  Object.defineProperty(app.request, 'fresh', {
    configurable: true,
    enumerable: true,
    get(this: Request): boolean {
      const res = this.res;
      if (!res || (res.getHeader('ETag') === undefined && res.getHeader('Last-Modified') === undefined)) return false;
      return Reflect.get(express, 'fresh', this) as boolean;
    },
  });
}
