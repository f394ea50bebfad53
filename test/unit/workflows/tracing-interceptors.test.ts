import { TRACE_HEADER as PACKAGE_TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';
import { TRACE_HEADER } from '../../../workflows/tracing-interceptors';

test('a workflow is traced by the header the OpenTelemetry client interceptor writes', () => {
  expect(TRACE_HEADER).toBe(PACKAGE_TRACE_HEADER);
});
