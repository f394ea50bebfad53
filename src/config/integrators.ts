import { hash } from 'node:crypto';
import { z } from 'zod';
import { KeyDirectory, readHoldersFile } from './key-directory';

export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex SHA-256 digest');

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
  return readHoldersFile('ONRAMP_INTEGRATORS_FILE', path, IntegratorsFileSchema).integrators;
}

/** Looks integrators up by API key (KeyDirectory: digests only, compared in constant time). */
export class IntegratorDirectory extends KeyDirectory<Integrator> {
  get integrators(): readonly Integrator[] {
    return this.holders;
  }

  byId(id: string): Integrator | undefined {
    return this.holders.find((i) => i.id === id);
  }
}
