/**
 * How large an order's memo can be, as Temporal measures it (`limit.memoSize.*`: the size of the
 * Memo message, every field a payload encrypted by the broker's codec). With every text the memo
 * takes from a provider within its bound (src/providers/kit/report-bounds.ts) and every text from
 * the integrator within the API's (extras at 8 KiB), the largest memo has a size known in advance:
 * it stays within MEMO_BUDGET_BYTES, and the warning limit of deploy/temporal/dynamicconfig.yaml sits
 * above an ordinary order's memo and below that largest one (docs/decisions.md, "Bounded provider text").
 */
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { temporalDynamicConfig } from '../../../scripts/lib/temporal-dynamic-config';
import type { Order } from '../../../src/domain/order';
import { extrasLimitBroken, EXTRAS_LIMITS } from '../../../src/orders/extras-limits';
import { PROVIDER_TEXT_LIMITS } from '../../../src/providers/kit/report-bounds';
import { EncryptionCodec, EncryptionKeysSchema } from '../../../src/temporal/codec';
import { orderWorkflowId, type OrderMemo } from '../../../src/temporal/order-contract';

/** What the largest memo may be: far below Temporal's `limit.memoSize.error` (2 MiB by default). */
const MEMO_BUDGET_BYTES = 32 * 1024;

const ORDER_ID = '3b0f7c2e-5d6a-5f4b-9c1d-2e8a7b6c5d4f';
/** A key id as long as ENCRYPTION_KEYS allows (64 characters): it is in every payload's metadata. */
const codec = new EncryptionCodec(EncryptionKeysSchema.parse(`${'k'.repeat(64)}:${Buffer.alloc(32, 7).toString('base64')}`));

/** Temporal's size of the memo the workflow upserts: one encrypted payload per field of OrderMemo. */
async function memoBytes(memo: OrderMemo, encrypt = true): Promise<number> {
  const fields: Record<string, Payload> = {};
  const context = { type: 'workflow' as const, namespace: 'default', workflowId: orderWorkflowId(memo.order.id) };
  for (const [key, value] of Object.entries(memo)) {
    const payload = defaultPayloadConverter.toPayload(value);
    fields[key] = encrypt ? (await codec.encode([payload], context))[0]! : payload;
  }
  return temporal.api.common.v1.Memo.encode({ fields }).finish().length;
}

/** `bytes` bytes of JSON text (ASCII: one byte a character). */
const text = (bytes: number) => 'a'.repeat(bytes);

/** Integrator extras of exactly `bytes` bytes as JSON, the API's limit by default. */
function extrasOf(bytes = EXTRAS_LIMITS.bytes): Record<string, unknown> {
  const extras = { note: text(bytes - '{"note":""}'.length) };
  expect(Buffer.byteLength(JSON.stringify(extras))).toBe(bytes);
  return extras;
}

/** A sandbox card purchase as an ordinary order's memo shows it. */
function ordinaryMemo(overrides: Partial<Order> = {}, extras: Record<string, unknown> = {}): OrderMemo {
  return {
    order: {
      id: ORDER_ID,
      status: 'complete',
      redirect_url: `https://checkout.example/checkout/${ORDER_ID}`,
      from_currency: 1,
      from_amount: '100.00',
      to_currency: 13,
      to_amount: '0.00145321',
      wallet_address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      payment_method: 'card',
      country_code: 'US',
      external_user_id: 'user-4521',
      external_order_id: 'order-2026-11-29-000123',
      created_at: '2026-11-29T10:00:00.000Z',
      updated_at: '2026-11-29T10:04:12.345Z',
      extras: {
        ...extras,
        provider_order_id: '7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f',
        provider_status: 'COMPLETED',
        transaction_hash: `0x${'ab'.repeat(32)}`,
      },
      ...overrides,
    },
    integratorId: 'acme-wallet',
    providerCode: 'sandbox',
    requestHash: 'f'.repeat(64),
    sequence: 5,
    providerOrderId: '7f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f',
  };
}

/**
 * The largest memo the bounds allow: every provider text at its bound, every integrator text at the
 * API's (ids of printable ASCII, each character a `"` or `\` written as two bytes of JSON; the wallet
 * address at 256 characters), extras at 8 KiB, both discrepancies, every flag set. An upper bound:
 * no one order has the longest status and a failure reason together.
 */
function largestMemo(): OrderMemo {
  const L = PROVIDER_TEXT_LIMITS;
  const integratorExtras = extrasOf();
  expect(extrasLimitBroken(integratorExtras)).toBeUndefined();
  const escapedId = '"'.repeat(128);
  return {
    order: {
      id: ORDER_ID,
      status: 'processing',
      redirect_url: text(L.redirectUrl),
      from_currency: 999_999_999,
      from_amount: text(L.fiatAmount),
      to_currency: 999_999_999,
      to_amount: text(L.cryptoAmount),
      wallet_address: text(256),
      payment_method: text(48),
      country_code: 'US',
      external_user_id: escapedId,
      external_order_id: escapedId,
      created_at: '2026-11-29T10:00:00.000Z',
      updated_at: '2026-11-29T10:04:12.345Z',
      extras: {
        ...integratorExtras,
        provider_order_id: text(L.providerOrderId),
        provider_status: text(L.providerStatus),
        transaction_hash: text(L.transactionHash),
      },
      failure_reason: text(L.failureReason),
      discrepancies: [
        { field: 'from_amount', ordered: '999999999999999999.999999999999999999', reported: text(L.fiatAmount) },
        { field: 'from_currency', ordered: '999999999', reported: '999999999' },
      ],
    },
    integratorId: text(63),
    providerCode: text(32),
    requestHash: 'f'.repeat(64),
    sequence: Number.MAX_SAFE_INTEGER,
    providerOrderId: text(L.providerOrderId),
    integrityAlert: 'payment_differs',
    refusedReports: Number.MAX_SAFE_INTEGER,
    reviewReason: 'open_too_long',
  };
}

const warnLimit = Number(temporalDynamicConfig()['limit.memoSize.warn']);

test(`the largest memo the bounds allow is within ${MEMO_BUDGET_BYTES} bytes, encrypted`, async () => {
  const largest = await memoBytes(largestMemo());
  // The figure docs/decisions.md gives ("The largest memo"); a change of the bounds changes it there too.
  expect(largest).toBe(27_553);
  expect(largest).toBeLessThanOrEqual(MEMO_BUDGET_BYTES);
});

test('the memo warning limit is above an ordinary order and below the largest memo', async () => {
  const ordinary = await memoBytes(ordinaryMemo());
  // An ordinary order with a return URL and a few keys of its own in extras, flagged for review.
  const withExtras = await memoBytes({
    ...ordinaryMemo({}, { return_url: 'https://wallet.example/orders/order-2026-11-29-000123/done', user_tier: 'gold', locale: 'en-GB' }),
    reviewReason: 'open_too_long',
  });
  const largest = await memoBytes(largestMemo());
  expect([ordinary, withExtras]).toEqual([2_571, 2_990]);
  expect(Number.isInteger(warnLimit)).toBe(true);
  expect(withExtras).toBeLessThan(warnLimit);
  expect(warnLimit).toBeLessThan(largest);
  // Above Temporal's default (2 KiB), which an ordinary order's memo is over: the warning said nothing.
  expect(ordinary).toBeGreaterThan(2 * 1024);
});

test('in clear (tests, and orders recorded before keys were set) the memo is smaller', async () => {
  expect(await memoBytes(largestMemo(), false)).toBeLessThan(await memoBytes(largestMemo()));
});
