import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProviderAdapter } from '../types';

/** What a call to a provider's API is for: the label of onramp_provider_requests_total. */
export type ProviderOperation = 'quote' | 'create' | 'status' | 'catalogue' | 'token' | 'webhook';

export interface ProviderCall {
  provider: string;
  operation: ProviderOperation;
}

const current = new AsyncLocalStorage<ProviderCall>();

/** The provider and operation the HTTP calls made now belong to (./http.ts labels its metrics with them). */
export function currentProviderCall(): ProviderCall | undefined {
  return current.getStore();
}

/** Runs `fn` with its provider HTTP calls labelled as `operation` of the current provider (Transak's token inside a quote). */
export function asProviderOperation<T>(operation: ProviderOperation, fn: () => Promise<T>): Promise<T> {
  const call = current.getStore();
  return call ? current.run({ provider: call.provider, operation }, fn) : fn();
}

/**
 * The adapter with each of its methods run as its operation, so that the HTTP calls it makes are
 * counted by provider and operation in one place (./http.ts) for every provider.
 */
export function labelledAdapter(adapter: ProviderAdapter): ProviderAdapter {
  const provider = adapter.info.code;
  const as = <R>(operation: ProviderOperation, call: () => Promise<R>): Promise<R> => current.run({ provider, operation }, call);
  const labelled: ProviderAdapter = {
    info: adapter.info,
    getCatalogue: (signal) => as('catalogue', () => adapter.getCatalogue(signal)),
    getQuote: (request, signal) => as('quote', () => adapter.getQuote(request, signal)),
    createOrder: (request) => as('create', () => adapter.createOrder(request)),
    getOrder: (orderId, providerOrderId) => as('status', () => adapter.getOrder(orderId, providerOrderId)),
    parseWebhook: (webhook) => as('webhook', () => adapter.parseWebhook(webhook)),
  };
  if (adapter.requiresCustomerIp !== undefined) Object.assign(labelled, { requiresCustomerIp: adapter.requiresCustomerIp });
  if (adapter.claimsProviderOrders !== undefined) Object.assign(labelled, { claimsProviderOrders: adapter.claimsProviderOrders });
  const { validateAddress } = adapter;
  if (validateAddress) labelled.validateAddress = (network, address) => validateAddress.call(adapter, network, address);
  return labelled;
}
