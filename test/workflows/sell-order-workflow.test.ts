/**
 * The sell (off-ramp) order workflow on Temporal's time-skipping test server, its worker running the
 * real activities against the sandbox simulator's sell protocol (whose webhooks go nowhere: the
 * workflow learns by polling, and the tests signal reports as the API would). The deposit is pinned
 * from the provider's answer and never changes; an order without a deposit expires at its window's
 * end; buy and sell messages never cross.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { validateWalletAddress } from '../../src/addresses/validate';
import { getOrderQuery, orderWorkflowId, providerEventSignal } from '../../src/temporal/order-contract';
import {
  getSellOrderQuery,
  SELL_ORDER_WORKFLOW_TYPE,
  sellProviderEventSignal,
  type SellOrderMemo,
  type SellOrderWorkflowInput,
} from '../../src/temporal/sell-order-contract';
import { DEFAULT_ORDER_TIMINGS } from '../../src/temporal/order-contract';
import type { sellOrderWorkflow } from '../../workflows';
import { eventually } from '../helpers/http';
import { checkout } from '../helpers/orders';
import { startTimeSkipping, type TimeSkippingStack } from '../helpers/time-skipping';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TASK_QUEUE = 'sell-orders';
const ETH = 14;
const EUR = 2;
const REFUND = '0x52908400098527886E0F7030069857D2E4169EE7';
const ATTACKER = '0xde709f2102306220921060314715629080e2fb77';

let stack: TimeSkippingStack;
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  stack = await startTimeSkipping({ taskQueue: TASK_QUEUE, settleDelayMs: 10 });
  env = stack.env;
});

afterAll(async () => {
  await stack?.stop();
});

type SellHandle = WorkflowHandle<typeof sellOrderWorkflow>;

function sellInput(orderId: string, overrides: Partial<SellOrderWorkflowInput['request']> = {}): SellOrderWorkflowInput {
  return {
    kind: 'off_ramp',
    orderId,
    integratorId: 'dev',
    providerCode: 'sandbox',
    requestHash: 'h',
    network: 'ethereum',
    timings: { ...DEFAULT_ORDER_TIMINGS, pollInitialMs: 10 * MINUTE, pollMaxMs: 10 * MINUTE, paymentWindowMs: 2 * HOUR },
    request: {
      from_currency: ETH,
      from_amount: '0.500000000000000000',
      to_currency: EUR,
      to_amount: '1400.00',
      refund_wallet_address: REFUND,
      payout_method: 'sepa',
      country_code: 'DE',
      external_user_id: 'user-1',
      external_order_id: orderId,
      extras: { deposit_address: ATTACKER },
      ...overrides,
    },
  };
}

async function startSell(
  id: string,
  overrides: Partial<SellOrderWorkflowInput['request']> = {},
): Promise<{ handle: SellHandle; memo: SellOrderMemo }> {
  stack.simulator.faults.providerOrderAgeMs = Date.now() - (await env.currentTimeMs());
  const handle = await env.client.workflow.start<typeof sellOrderWorkflow>(SELL_ORDER_WORKFLOW_TYPE, {
    workflowId: orderWorkflowId(id),
    taskQueue: TASK_QUEUE,
    args: [sellInput(id, overrides)],
  });
  const memo = await eventually(async () => (await handle.query(getSellOrderQuery)) ?? undefined, `sell order ${id} created`);
  return { handle, memo };
}

const memoOf = (handle: SellHandle) => handle.query(getSellOrderQuery);

describe('sell order workflow', () => {
  it('pins the provider deposit, follows the walk to complete by polling, and sends each change in sequence', async () => {
    const { handle, memo } = await startSell('00000000-0000-5000-8000-00000000c001');
    expect(memo.order.status).toBe('waiting_for_deposit');
    const deposit = memo.order.deposit!;
    expect(deposit.network).toBe('ethereum');
    expect(deposit.address).not.toBe(ATTACKER);
    expect(validateWalletAddress('ethereum', deposit.address).valid).toBe(true);
    await checkout(memo.order.redirect_url, 'pay');
    const result = await handle.result();
    expect(result.order.status).toBe('complete');
    expect(result.order.deposit).toEqual(deposit);
    expect(result.order.extras.deposit_address).toBe(ATTACKER);
    // The test's order quoted no offer of the simulator's: only the payout may differ from it, never the deposit.
    expect((result.order.discrepancies ?? []).map((d) => d.field)).toEqual((result.order.discrepancies ?? []).length ? ['to_amount'] : []);
    expect(result.integrityAlert === undefined || result.integrityAlert === 'payment_differs').toBe(true);
  });

  it('refuses a report naming another deposit address, raises deposit_refused, and keeps the order where it was', async () => {
    const { handle, memo } = await startSell('00000000-0000-5000-8000-00000000c002');
    const deposit = memo.order.deposit!;
    await handle.signal(sellProviderEventSignal, {
      providerCode: 'sandbox',
      eventId: 'forged-1',
      providerStatus: 'AWAITING_DEPOSIT',
      status: 'deposit_received',
      deposit: { address: ATTACKER, network: 'ethereum' },
    });
    const flagged = await eventually(async () => {
      const current = await memoOf(handle);
      return current?.integrityAlert === 'deposit_refused' ? current : undefined;
    }, 'deposit_refused');
    expect(flagged.order.deposit).toEqual(deposit);
    expect(flagged.order.status).toBe('waiting_for_deposit');
    expect(flagged.sequence).toBe(memo.sequence);
    await checkout(memo.order.redirect_url, 'pay');
    expect((await handle.result()).order.deposit).toEqual(deposit);
  });

  it('a buy report signalled to a sell order is not handled: the order does not move', async () => {
    const { handle, memo } = await startSell('00000000-0000-5000-8000-00000000c003');
    await handle.signal(providerEventSignal, { providerCode: 'sandbox', eventId: 'b1', providerStatus: 'COMPLETED', status: 'complete' });
    await env.sleep(MINUTE);
    expect((await memoOf(handle))!.order.status).toBe(memo.order.status);
    await expect(handle.query(getOrderQuery)).rejects.toThrow();
    // Ended by its own walk: a terminated order leaves the time-skipping server waiting on it.
    await checkout(memo.order.redirect_url, 'pay');
    expect((await handle.result()).order.status).toBe('complete');
  });

  it('expires an order whose deposit never comes at the end of its window, then revives it on a late deposit', async () => {
    const { handle, memo } = await startSell('00000000-0000-5000-8000-00000000c004');
    await env.sleep(2 * HOUR + MINUTE);
    const expired = await eventually(async () => {
      const current = await memoOf(handle);
      return current?.order.status === 'expired' ? current : undefined;
    }, 'expired');
    expect(expired.order.deposit).toEqual(memo.order.deposit);
    await checkout(memo.order.redirect_url, 'late');
    const result = await handle.result();
    expect(result.order.status).toBe('complete');
  });

  it('shows the amount that arrived and the payout computed from it, with discrepancies', async () => {
    const { handle, memo } = await startSell('00000000-0000-5000-8000-00000000c005');
    const response = await fetch(memo.order.redirect_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'wrong_amount', amount: '0.4' }),
    });
    expect(response.status).toBeLessThan(300);
    const result = await handle.result();
    expect(result.order.status).toBe('complete');
    expect(result.order.from_amount).toBe('0.4');
    expect(result.order.discrepancies?.map((d) => d.field)).toEqual(expect.arrayContaining(['from_amount', 'to_amount']));
    expect(result.integrityAlert).toBe('payment_differs');
  });

  it('refuses an invalid refund address before anything is made at the provider', async () => {
    const handle = await env.client.workflow.start<typeof sellOrderWorkflow>(SELL_ORDER_WORKFLOW_TYPE, {
      workflowId: orderWorkflowId('00000000-0000-5000-8000-00000000c006'),
      taskQueue: TASK_QUEUE,
      args: [sellInput('00000000-0000-5000-8000-00000000c006', { refund_wallet_address: '0x1234' })],
    });
    await expect(handle.result()).rejects.toMatchObject({ cause: { type: 'invalid_wallet_address' } });
    const history = (await handle.fetchHistory()).events ?? [];
    // The refund address is checked (one local activity marker) and nothing else runs: no provider order is made.
    expect(history.filter((e) => e.markerRecordedEventAttributes)).toHaveLength(1);
  });
});
