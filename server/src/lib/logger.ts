import pino, { type DestinationStream } from 'pino';

/** Structured JSON logs; secrets are redacted wherever they might appear. */
export function createLogger(level: string, destination?: DestinationStream) {
  return pino({
    level,
    redact: {
      // the webhook's secret token is derived from the bot token
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-telegram-bot-api-secret-token"]', 'password', '*.password', 'botToken', '*.botToken'],
      censor: '[redacted]',
    },
  }, destination);
}
export type Logger = ReturnType<typeof createLogger>;
