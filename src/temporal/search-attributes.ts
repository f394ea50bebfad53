import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { ORDER_SEARCH_ATTRIBUTES } from './order-contract';

const INDEXED_TYPES = {
  KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  KEYWORD_LIST: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
  DATETIME: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
} as const;

const typeOf = (name: string) => {
  const type = ORDER_SEARCH_ATTRIBUTES.find((k) => k.name === name)?.type;
  return type === 'DATETIME' || type === 'KEYWORD_LIST' ? INDEXED_TYPES[type] : INDEXED_TYPES.KEYWORD;
};

/** Registers the broker's custom search attributes that the namespace lacks; returns the ones added. */
export async function ensureSearchAttributes(client: Client, namespace: string): Promise<string[]> {
  const existing = await client.connection.operatorService.listSearchAttributes({ namespace });
  const known = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = ORDER_SEARCH_ATTRIBUTES.map((key) => key.name).filter((name) => !known.has(name));
  if (missing.length > 0) await addSearchAttributes(client, namespace, missing);
  return missing;
}

/** Adds the named search attributes (all of the broker's by default), each of its type, without asking what exists. */
export async function addSearchAttributes(
  client: Client,
  namespace: string,
  names: readonly string[] = ORDER_SEARCH_ATTRIBUTES.map((key) => key.name),
): Promise<void> {
  await client.connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(names.map((name) => [name, typeOf(name)])),
  });
}
