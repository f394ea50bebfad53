/** What a call to a provider's API is for: the label of onramp_provider_requests_total and of its span. */
export type ProviderOperation = 'quote' | 'create' | 'status' | 'catalogue' | 'token' | 'transactions' | 'cancel';

/**
 * Which provider a call goes to and what for. Each client names it on every call (explicitly rather
 * than through AsyncLocalStorage, whose async hooks would slow every promise of the process).
 */
export interface ProviderCall {
  provider: string;
  operation: ProviderOperation;
}
