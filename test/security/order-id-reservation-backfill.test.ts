/**
 * Attack: one purchase, two orders under one id, against an order created before the API reserved
 * order ids (or only ever repeated since). It has no reservation, so once retention deletes it, its
 * `external_order_id` starts a new order under the old id again (test/security/order-id-reuse.test.ts).
 * The backfill an operator runs once after upgrading (`npm run orders:reserve-ids`) must reserve
 * every order Temporal still keeps, open, closed or continued, as the API would have, and start
 * nothing on a second run.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ORDER_ID_RESERVATION_WORKFLOW_TYPE } from '../../src/orders/claims';
import { backfillOrderIdReservations, type ReservationBackfillOptions } from '../../src/orders/reservation-backfill';
import { orderIdReservationId, orderWorkflowId } from '../../src/temporal/order-contract';
import { eventually } from '../helpers/http';
import { workflowInput } from '../helpers/orders';
import { startTemporal } from '../helpers/temporal';

const DAY_MS = 24 * 3_600_000;
const HOLD_MS = 730 * DAY_MS;
/** No worker polls either queue: the orders stay as started, and the reservations are only looked at. */
const ORDERS_QUEUE = 'backfill-orders';
const RESERVATIONS_QUEUE = 'backfill-reservations';
const root = join(__dirname, '..', '..');

let env: TestWorkflowEnvironment;
const running = [randomUUID(), randomUUID()];
const closed = randomUUID();
/** Two runs under one workflow id, as an order continued as new has in visibility. */
const twoRuns = randomUUID();
/** An order created by this version's API: its id is reserved already. */
const reservedByApi = randomUUID();
const unreserved = [...running, closed, twoRuns];

let options: ReservationBackfillOptions;

async function startOrder(orderId: string): Promise<void> {
  await env.client.workflow.start('orderWorkflow', {
    workflowId: orderWorkflowId(orderId),
    taskQueue: ORDERS_QUEUE,
    args: [workflowInput(orderId)],
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
  });
}

async function reservationExists(orderId: string): Promise<boolean> {
  try {
    await env.client.workflow.getHandle(orderIdReservationId(orderId)).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

beforeAll(async () => {
  env = await startTemporal();
  options = { client: env.client, taskQueue: RESERVATIONS_QUEUE, holdMs: HOLD_MS };
  for (const orderId of [...running, closed, twoRuns, reservedByApi]) await startOrder(orderId);
  await env.client.workflow.getHandle(orderWorkflowId(closed)).terminate('closed before the upgrade');
  await env.client.workflow.getHandle(orderWorkflowId(twoRuns)).terminate('its first run');
  await startOrder(twoRuns);
  await env.client.workflow.start(ORDER_ID_RESERVATION_WORKFLOW_TYPE, {
    workflowId: orderIdReservationId(reservedByApi),
    taskQueue: RESERVATIONS_QUEUE,
    args: [{ orderId: reservedByApi, holdForMs: HOLD_MS }],
  });
  // Six order runs of five orders, once visibility shows them all.
  await eventually(
    async () => ((await env.client.workflow.count("WorkflowType = 'orderWorkflow'")).count === 6 ? true : undefined),
    'visibility',
  );
});

afterAll(async () => {
  await env?.teardown();
});

test('a dry run finds the orders without a reservation and starts nothing', async () => {
  const summary = await backfillOrderIdReservations({ ...options, dryRun: true });
  expect(summary).toEqual({ dryRun: true, listed: 5, reserved: 4, alreadyReserved: 1, failed: [] });
  for (const orderId of unreserved) expect(await reservationExists(orderId)).toBe(false);
});

test('the backfill reserves every order id Temporal still keeps, as the API would, whatever the order status', async () => {
  const summary = await backfillOrderIdReservations(options);
  expect(summary).toEqual({ dryRun: false, listed: 5, reserved: 4, alreadyReserved: 1, failed: [] });
  for (const orderId of unreserved) {
    const handle = env.client.workflow.getHandle(orderIdReservationId(orderId));
    const description = await handle.describe();
    expect({ orderId, type: description.type, status: description.status.name, taskQueue: description.taskQueue }).toEqual({
      orderId,
      type: ORDER_ID_RESERVATION_WORKFLOW_TYPE,
      status: 'RUNNING',
      taskQueue: RESERVATIONS_QUEUE,
    });
    const started = (await handle.fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
    const input = defaultPayloadConverter.fromPayload(started!.input!.payloads![0]!);
    expect(input).toEqual({ orderId, holdForMs: HOLD_MS });
  }
});

test('a second run reserves nothing: every id is already reserved', async () => {
  const summary = await backfillOrderIdReservations(options);
  expect(summary).toEqual({ dryRun: false, listed: 5, reserved: 0, alreadyReserved: 5, failed: [] });
});

test('npm run orders:reserve-ids reads the broker configuration, prints the summary, and exits 1 on a failure', async () => {
  const run = (...args: string[]) =>
    spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'src', 'orders', 'reserve-ids-main.ts'), ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TEMPORAL_ADDRESS: env.address, TEMPORAL_TASK_QUEUE: RESERVATIONS_QUEUE },
      timeout: 60_000,
    });
  const dry = run('--dry-run');
  expect({ status: dry.status, stderr: dry.stderr }).toEqual({ status: 0, stderr: '' });
  expect(dry.stdout).toContain('order workflows listed: 5\nwould reserve (dry run, nothing started): 0\nalready reserved: 5\nfailed: 0\n');

  // An order workflow under an id the API never makes: reported, and the exit status says so.
  await env.client.workflow.start('orderWorkflow', { workflowId: 'not-an-order', taskQueue: ORDERS_QUEUE, args: [workflowInput('x')] });
  await eventually(
    async () => ((await env.client.workflow.count("WorkflowType = 'orderWorkflow'")).count === 7 ? true : undefined),
    'visibility',
  );
  const failing = run();
  expect(failing.status).toBe(1);
  expect(failing.stdout).toContain(
    'order workflows listed: 6\nreserved now: 0\nalready reserved: 5\nfailed: 1\n  not-an-order: the workflow id names no order id\n',
  );

  const wrongFlag = run('--concurrency=0');
  expect(wrongFlag.status).toBe(1);
  expect(wrongFlag.stderr).toMatch(/--concurrency takes an integer from 1 to 100\nusage: npm run orders:reserve-ids/);
}, 120_000);
