import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The integrator the fault run plays: its API key (kept by the run) and webhook secret. */
export interface RunIntegrator {
  id: string;
  apiKey: string;
  webhookSecret: string;
}

export function newIntegrator(): RunIntegrator {
  return {
    id: 'fault-run',
    apiKey: `obk_test_${randomBytes(16).toString('hex')}`,
    webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
  };
}

/** Writes an integrators file (format of deploy/integrators.example.json): the key as its SHA-256, webhooks to `webhookUrl`. */
export async function writeIntegratorsFile(path: string, integrator: RunIntegrator, webhookUrl: string): Promise<void> {
  const file = {
    integrators: [
      {
        id: integrator.id,
        name: 'Fault-injection run (test/cluster)',
        api_key_sha256: [createHash('sha256').update(integrator.apiKey).digest('hex')],
        webhook_url: webhookUrl,
        webhook_secret: integrator.webhookSecret,
      },
    ],
  };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
}
