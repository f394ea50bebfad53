/**
 * `npm run demo`: the checkout demo against a broker (by default the one `npm run dev` starts).
 * The defaults are the development values the broker publishes; see examples/checkout-demo/README.md.
 */
import { startCheckoutDemo, WEBHOOK_PATH } from './app';

/** The broker's published development API key and webhook secret (`npm run dev` prints the key). */
const DEV_API_KEY = 'obk_test_dev_0000000000000000000000000000';
const DEV_WEBHOOK_SECRET = 'whsec_ZGV2LW9ubHktd2ViaG9vay1zZWNyZXQtMzJieXRlcyE=';

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 4020);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not ${process.env.PORT}`);
  const apiUrl = process.env.ONRAMP_API_URL ?? 'http://127.0.0.1:3000';
  const demo = await startCheckoutDemo({
    apiUrl,
    apiKey: process.env.ONRAMP_API_KEY ?? DEV_API_KEY,
    webhookSecret: process.env.WEBHOOK_SECRET ?? DEV_WEBHOOK_SECRET,
    host: process.env.HOST ?? '127.0.0.1',
    port,
    ...(process.env.DEMO_PUBLIC_URL ? { publicUrl: process.env.DEMO_PUBLIC_URL.replace(/\/$/, '') } : {}),
  });
  const publicUrl = process.env.DEMO_PUBLIC_URL ?? demo.url.replace('127.0.0.1', 'localhost');
  process.stdout.write(
    [
      '',
      `  Checkout demo       ${publicUrl}`,
      `  Broker API          ${apiUrl}`,
      `  Webhook endpoint    ${demo.url}${WEBHOOK_PATH}`,
      `  (start the broker with ONRAMP_WEBHOOK_URL=${demo.url}${WEBHOOK_PATH} npm run dev)`,
      '  Ctrl-C stops it.',
      '',
      '',
    ].join('\n'),
  );
  const stop = () => void demo.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`[demo] ${(err as Error).message}\n`);
  process.exit(1);
});
