import { hash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from './env';

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256 digest');

export const IntegratorSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/),
  name: z.string().min(1),
  /** SHA-256 digests of the integrator's API keys; more than one during a key rotation. */
  api_key_sha256: z.array(Sha256Hex).min(1),
  webhook_url: z.url().optional(),
  webhook_secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]{32,}$/)
    .optional(),
});
export type Integrator = z.infer<typeof IntegratorSchema>;

export const IntegratorsFileSchema = z
  .object({ integrators: z.array(IntegratorSchema).min(1) })
  .refine((f) => new Set(f.integrators.map((i) => i.id)).size === f.integrators.length, {
    message: 'integrator ids must be unique',
  });

export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function readIntegratorsFile(path: string): Integrator[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError([`ONRAMP_INTEGRATORS_FILE: cannot read ${path}: ${(err as Error).message}`]);
  }
  const parsed = IntegratorsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError([`ONRAMP_INTEGRATORS_FILE: ${path} is invalid: ${detail}`]);
  }
  return parsed.data.integrators;
}

/** Looks integrators up by API key. Keys are held only as SHA-256 digests and compared in constant time. */
export class IntegratorDirectory {
  private readonly entries: { digest: Buffer; integrator: Integrator }[];

  constructor(readonly integrators: readonly Integrator[]) {
    this.entries = integrators.flatMap((integrator) =>
      integrator.api_key_sha256.map((hex) => ({ digest: Buffer.from(hex, 'hex'), integrator })),
    );
  }

  authenticate(apiKey: string): Integrator | undefined {
    const digest = hash('sha256', apiKey, 'buffer');
    let found: Integrator | undefined;
    // Walk every entry so the time taken does not depend on which key matched.
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, digest)) found = entry.integrator;
    }
    return found;
  }

  byId(id: string): Integrator | undefined {
    return this.integrators.find((i) => i.id === id);
  }
}
