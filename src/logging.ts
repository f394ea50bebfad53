import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

export function createLogger(level: string, name: string): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers["sandbox-signature"]', '*.webhook_secret', '*.apiKey'],
      censor: '[redacted]',
    },
  });
}
