import type { Express, Request } from 'express';

/**
 * Replaces one of Express's request getters for this app only: the new getter sits on the app's
 * request prototype, over Express's own, and is handed a way to call Express's for the same request.
 */
export function overrideRequestGetter<T>(app: Express, name: 'query' | 'fresh', get: (req: Request, express: () => T) => T): void {
  const express = Object.getPrototypeOf(app.request) as object;
  if (typeof Object.getOwnPropertyDescriptor(express, name)?.get !== 'function') {
    throw new Error(`express no longer defines req.${name} as a getter`);
  }
  Object.defineProperty(app.request, name, {
    configurable: true,
    enumerable: true,
    get(this: Request): T {
      return get(this, () => Reflect.get(express, name, this) as T);
    },
  });
}
