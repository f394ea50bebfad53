/**
 * OrderService remembers each order's provider (its webhooks then need no describe call), and looks
 * again when a provider's webhook names an order it remembers as another provider's: an order whose
 * creation failed may have been created again, with another provider, through another API process.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { OrderService } from '../../../src/orders/service';
import type { ProviderWebhookEvent } from '../../../src/providers/types';
import { orderWorkflowId, PROVIDER_CODE_KEY } from '../../../src/temporal/order-contract';

const ORDER = 'ord_test_1';

/** The Temporal calls OrderService makes for a webhook, against one order whose provider can change. */
class OrderWorkflows {
  provider: string | undefined = 'moonpay';
  describes = 0;
  signalled: string[] = [];
  events: { receivedAt?: string }[] = [];

  getHandle(workflowId: string) {
    expect(workflowId).toBe(orderWorkflowId(ORDER));
    return {
      describe: () => {
        this.describes += 1;
        const provider = this.provider;
        if (provider === undefined) return Promise.reject(new WorkflowNotFoundError('no such workflow', workflowId, undefined));
        return Promise.resolve({ typedSearchAttributes: { get: (key: unknown) => (key === PROVIDER_CODE_KEY ? provider : undefined) } });
      },
      signal: (_signal: unknown, event: { providerCode: string; receivedAt?: string }) => {
        if (this.provider === undefined) return Promise.reject(new WorkflowNotFoundError('no such workflow', workflowId, undefined));
        this.signalled.push(event.providerCode);
        this.events.push(event);
        return Promise.resolve();
      },
    };
  }
}

function serviceOver(workflows: OrderWorkflows): OrderService {
  const client = { workflow: workflows, withDeadline: <T>(_deadline: number, fn: () => Promise<T>) => fn() };
  return new OrderService({
    client: client as unknown as Client,
    taskQueue: 'test',
    createTimeoutMs: 1000,
    claimLifetimeMs: 60_000,
    orderIdReservation: { holdMs: 60_000 },
  });
}

const event = (eventId: string): ProviderWebhookEvent => ({ orderId: ORDER, eventId, providerStatus: 'pending', status: 'processing' });

test('a forwarded webhook carries when the API received it: the time of the change it makes', async () => {
  const workflows = new OrderWorkflows();
  const before = Date.now();
  await expect(serviceOver(workflows).signalProviderEvent('moonpay', event('e1'))).resolves.toBe('delivered');
  const receivedAt = Date.parse(workflows.events[0]!.receivedAt!);
  expect(receivedAt).toBeGreaterThanOrEqual(before);
  expect(receivedAt).toBeLessThanOrEqual(Date.now());
  expect(workflows.events[0]!.receivedAt).toBe(new Date(receivedAt).toISOString());
});

describe('OrderService: the provider of an order', () => {
  it('is read once, then remembered', async () => {
    const workflows = new OrderWorkflows();
    const orders = serviceOver(workflows);
    await expect(orders.signalProviderEvent('moonpay', event('e1'))).resolves.toBe('delivered');
    await expect(orders.signalProviderEvent('moonpay', event('e2'))).resolves.toBe('delivered');
    expect(workflows.describes).toBe(1);
    expect(workflows.signalled).toEqual(['moonpay', 'moonpay']);
  });

  it('is read again when another provider names the order, which is then delivered if the order is now that provider’s', async () => {
    const workflows = new OrderWorkflows();
    const orders = serviceOver(workflows);
    await expect(orders.signalProviderEvent('moonpay', event('e1'))).resolves.toBe('delivered');
    // Created again elsewhere, with Transak, after its creation with MoonPay failed.
    workflows.provider = 'transak';
    await expect(orders.signalProviderEvent('transak', event('e2'))).resolves.toBe('delivered');
    await expect(orders.signalProviderEvent('moonpay', event('e3'))).resolves.toBe('other_provider');
    expect(workflows.signalled).toEqual(['moonpay', 'transak']);
    // Transak's remembered now; MoonPay's stray webhook cost one describe.
    await expect(orders.signalProviderEvent('transak', event('e4'))).resolves.toBe('delivered');
    expect(workflows.describes).toBe(3);
  });

  it('refuses another provider’s webhook for an order that is still the first provider’s', async () => {
    const workflows = new OrderWorkflows();
    const orders = serviceOver(workflows);
    await expect(orders.signalProviderEvent('moonpay', event('e1'))).resolves.toBe('delivered');
    await expect(orders.signalProviderEvent('banxa', event('e2'))).resolves.toBe('other_provider');
    expect(workflows.signalled).toEqual(['moonpay']);
  });

  it('costs another provider’s webhook one describe, whether or not the order was remembered', async () => {
    const workflows = new OrderWorkflows();
    const orders = serviceOver(workflows);
    await expect(orders.signalProviderEvent('banxa', event('e1'))).resolves.toBe('other_provider');
    expect(workflows.describes).toBe(1);
    await expect(orders.signalProviderEvent('banxa', event('e2'))).resolves.toBe('other_provider');
    expect(workflows.describes).toBe(2);
    await expect(orders.signalProviderEvent('moonpay', event('e3'))).resolves.toBe('delivered');
    expect(workflows.describes).toBe(2);
  });

  it('shares one describe among webhooks of one order that arrive together', async () => {
    const workflows = new OrderWorkflows();
    const orders = serviceOver(workflows);
    const outcomes = await Promise.all(
      ['moonpay', 'moonpay', 'banxa', 'moonpay', 'banxa'].map((provider, i) => orders.signalProviderEvent(provider, event(`e${i}`))),
    );
    expect(outcomes).toEqual(['delivered', 'delivered', 'other_provider', 'delivered', 'other_provider']);
    expect(workflows.describes).toBe(1);
  });

  it('answers unknown_order once the order is gone, and forgets the provider it remembered', async () => {
    const workflows = new OrderWorkflows();
    const orders = serviceOver(workflows);
    await expect(orders.signalProviderEvent('moonpay', event('e1'))).resolves.toBe('delivered');
    workflows.provider = undefined;
    await expect(orders.signalProviderEvent('banxa', event('e2'))).resolves.toBe('unknown_order');
    await expect(orders.signalProviderEvent('moonpay', event('e3'))).resolves.toBe('unknown_order');
    expect(workflows.describes).toBe(3);
  });
});
