import { createHmac } from 'node:crypto';

/** `Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, as the sandbox provider signs. */
export function signSandboxPayload(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
