/**
 * One order's creation is one trace: the API's HTTP span is its root, and under it the
 * update-with-start client span, the workflow's run and update spans (exported from the workflow
 * through its sink), the activities, and the provider HTTP calls they make. Then the provider's
 * webhook about the order: its own trace, with the order id on its HTTP span and the signal under it.
 * Real API, Temporal dev server, worker and simulator; spans kept by an in-memory exporter.
 */
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind } from '@opentelemetry/api';
import { startTracing, stopTracing } from '../../src/tracing';
import { eventually } from '../helpers/http';
import { checkout, draftOrder, offerThenOrder, waitForStatus } from '../helpers/orders';
import { useTestStack } from '../helpers/stack';

jest.setTimeout(120_000);

const exporter = new InMemorySpanExporter();
// Before the stack: its client, API and worker look for tracing when they are made.
startTracing({ serviceName: 'onramp-test', processor: new SimpleSpanProcessor(exporter) });
const started = useTestStack();
afterAll(() => stopTracing());

const spans = () => exporter.getFinishedSpans();
const named = (trace: ReadableSpan[], prefix: string) => trace.filter((s) => s.name.startsWith(prefix));

/** The one span of `trace` named `prefix…`, whose parent is `parent`. */
function childOf(trace: ReadableSpan[], parent: ReadableSpan, prefix: string): ReadableSpan {
  const found = named(trace, prefix).filter((s) => s.parentSpanId === parent.spanContext().spanId);
  if (found.length !== 1) {
    const tree = trace.map((s) => `${s.name} ${s.spanContext().spanId} <- ${s.parentSpanId ?? 'root'}`).join('\n');
    throw new Error(`expected one ${prefix}… under ${parent.name}, found ${found.length} in:\n${tree}`);
  }
  return found[0]!;
}

test('an order creation is one trace, from the HTTP request down to the provider call', async () => {
  const { stack } = started;
  const created = await offerThenOrder(stack.apiUrl, draftOrder());
  expect(created.status).toBe(200);
  const orderId = created.body.id as string;
  // The workflow's run span ends with the workflow: pay, so that it completes.
  expect((await checkout(created.body.redirect_url, 'pay')).status).toBe(200);
  await waitForStatus(stack.apiUrl, 'sandbox', orderId, 'complete', 60_000);

  const root = await eventually(
    () => Promise.resolve(spans().find((s) => s.name === 'POST /api/on_ramp/orders' && s.attributes['onramp.order_id'] === orderId)),
    'the order request span',
  );
  const traceId = root.spanContext().traceId;
  const trace = await eventually(() => {
    const inTrace = spans().filter((s) => s.spanContext().traceId === traceId);
    return Promise.resolve(named(inTrace, 'RunWorkflow:').length ? inTrace : undefined);
  }, 'the workflow run span');

  expect(root.parentSpanId).toBeUndefined();
  expect(root.kind).toBe(SpanKind.SERVER);
  expect(root.attributes).toMatchObject({ 'http.route': '/api/on_ramp/orders', 'http.response.status_code': 200 });
  expect(root.resource.attributes['service.name']).toBe('onramp-test');

  const updateWithStart = childOf(trace, root, 'UpdateWithStartWorkflow:createOrder');
  expect(updateWithStart.attributes.temporalWorkflowId).toBe(`onramp-order-${orderId}`);
  const run = childOf(trace, updateWithStart, 'RunWorkflow:');
  childOf(trace, updateWithStart, 'HandleUpdate:createOrder');

  // Activities: scheduled by the workflow, run by the worker, each run under its schedule.
  const scheduled = named(trace, 'StartActivity:');
  expect(scheduled.map((s) => s.name)).toEqual(
    expect.arrayContaining(['StartActivity:validateWalletAddress', 'StartActivity:createProviderOrder']),
  );
  const inWorkflow = new Set(
    trace.filter((s) => s.name.startsWith('RunWorkflow:') || s.name.startsWith('HandleUpdate:')).map((s) => s.spanContext().spanId),
  );
  for (const schedule of scheduled) expect(inWorkflow).toContain(schedule.parentSpanId);
  const createSchedule = scheduled.find((s) => s.name === 'StartActivity:createProviderOrder')!;
  const createRun = childOf(trace, createSchedule, 'RunActivity:createProviderOrder');
  expect(createRun.attributes.temporalWorkflowId).toBe(`onramp-order-${orderId}`);

  // The provider call the activity made: a client span with the provider, operation and answer.
  const providerCall = childOf(trace, createRun, 'POST sandbox create');
  expect(providerCall.kind).toBe(SpanKind.CLIENT);
  expect(providerCall.attributes).toMatchObject({
    'onramp.provider': 'sandbox',
    'onramp.provider.operation': 'create',
    'http.request.method': 'POST',
    'http.response.status_code': expect.any(Number),
  });
  expect(run.endTime).toBeDefined();

  // The provider's webhooks about the order: each its own trace, the order on its HTTP span, the signal under it.
  const webhook = spans().find((s) => s.name === 'POST /api/webhooks/:provider_code' && s.attributes['onramp.order_id'] === orderId);
  expect(webhook).toBeDefined();
  expect(webhook!.parentSpanId).toBeUndefined();
  const webhookTrace = spans().filter((s) => s.spanContext().traceId === webhook!.spanContext().traceId);
  const signal = childOf(webhookTrace, webhook!, 'SignalWorkflow:providerEvent');
  expect(signal.attributes.temporalWorkflowId).toBe(`onramp-order-${orderId}`);
});
