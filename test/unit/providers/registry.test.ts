import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { loadConfig } from '../../../src/config';
import { createProviderRegistry, logDisabledProviders } from '../../../src/providers/registry';
import { TEST_ENCRYPTION_KEYS, TEST_RANKING_CUSTOMER_KEY } from '../../helpers/config';
import { KIT_PROVIDER_CODES } from '../../helpers/providers';

const PROD = {
  NODE_ENV: 'production',
  ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
  RANKING_CUSTOMER_KEY: TEST_RANKING_CUSTOMER_KEY,
  ONRAMP_API_KEY: 'prod-key-0123456789abcdef',
};

/** A pino logger writing JSON lines into an array. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('createProviderRegistry', () => {
  test('with a simulator host: every provider, by code', () => {
    // The test kits' codes, which the compiler holds to the manifest's.
    expect(createProviderRegistry(loadConfig({})).codes()).toEqual([...KIT_PROVIDER_CODES].sort());
  });

  test('in production without SANDBOX_URL: only the providers with credentials', () => {
    expect(createProviderRegistry(loadConfig(PROD)).codes()).toEqual([]);
    const ramp = createProviderRegistry(
      loadConfig({ ...PROD, RAMP_HOST_API_KEY: 'ramp-host-key', RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef' }),
    );
    expect(ramp.codes()).toEqual(['ramp']);
    expect(ramp.get('ramp')?.info.name).toBe('Ramp Network');
  });

  test('SANDBOX_ENABLED=false leaves the sandbox out', () => {
    expect(createProviderRegistry(loadConfig({ SANDBOX_ENABLED: 'false' })).codes()).not.toContain('sandbox');
  });
});

describe('logDisabledProviders', () => {
  test('one line per disabled provider, naming it and the reason', () => {
    const { logger, lines } = capturingLogger();
    logDisabledProviders(
      loadConfig({ ...PROD, RAMP_HOST_API_KEY: 'ramp-host-key', RAMP_WEBHOOK_URL_SECRET: 'ramp-webhook-url-secret-0123456789abcdef' }),
      logger,
    );
    expect(lines.map((line) => line.provider).sort()).toEqual(KIT_PROVIDER_CODES.filter((code) => code !== 'ramp').sort());
    expect(lines[0]).toMatchObject({
      level: 30,
      reason: 'no simulator host (SANDBOX_URL is not set)',
      msg: 'provider sandbox disabled: no simulator host (SANDBOX_URL is not set)',
    });
    for (const line of lines) expect(line.msg).toBe(`provider ${String(line.provider)} disabled: ${String(line.reason)}`);
  });

  test('nothing when every provider runs', () => {
    const { logger, lines } = capturingLogger();
    logDisabledProviders(loadConfig({}), logger);
    expect(lines).toEqual([]);
  });
});

describe('cancelOrder', () => {
  /** The codes docs/providers.md's Cancellation table gives a documented cancel call (any row not "none …"). */
  function documentedCancels(): string[] {
    const doc = readFileSync(join(__dirname, '../../../docs/providers.md'), 'utf8');
    const section = doc.split('\n## Cancellation\n')[1]!.split('\n## ')[0]!;
    return [...section.matchAll(/^\| `([a-z_]+)` \| ([^|]+)\|/gm)]
      .filter(([, , call]) => !/^none\b/.test(call!.trim()))
      .map(([, code]) => code!);
  }

  test('exactly the providers whose documented cancel call docs/providers.md names have one', () => {
    const registry = createProviderRegistry(loadConfig({}));
    const withCancel = registry.codes().filter((code) => typeof registry.get(code)!.cancelOrder === 'function');
    expect(withCancel).toEqual(documentedCancels().sort());
    expect(withCancel).toEqual(['sandbox']);
  });
});
