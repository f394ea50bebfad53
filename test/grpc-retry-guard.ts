/**
 * @temporalio/client's gRPC retry interceptor (grpc-retry.ts) retries a failed call from a timer;
 * when the test has closed the connection meanwhile (a teardown while a call waited to be retried),
 * grpc-js throws "Channel has been shut down" from that timer, outside any test, and takes the whole
 * in-band jest run down with it (seen once in a CI run of 175 files). Only that one error, thrown
 * from that timer, is reported and let go here; every other uncaught error still ends the run.
 * Installed once per process (setupFiles run for every test file).
 */
const GUARD = Symbol.for('onramp.test.grpcRetryGuard');
const holder = process as unknown as Record<symbol, boolean>;

if (!holder[GUARD]) {
  holder[GUARD] = true;
  process.on('uncaughtException', (err) => {
    if (err instanceof Error && err.message === 'Channel has been shut down' && /grpc-retry/.test(err.stack ?? '')) {
      process.stderr.write(`[grpc-retry-guard] a Temporal call was retried after its test closed the connection: ${err.message}\n`);
      return;
    }
    throw err;
  });
}
