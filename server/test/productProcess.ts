import { TEST_BOT_TOKEN } from './helpers';

/**
 * The environment of the compiled product started as a process of its own by a test (two instances, the crash
 * test): its database, a console operator, a bot token whose Bot API is nowhere, a public address, logs the test
 * reads for 'listening', and a sweep fast enough to watch.
 */
export function productProcessEnv(
  mongoUrl: string,
  operator: { username: string; password: string },
  overrides: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: '0',
    MONGO_URL: mongoUrl,
    JWT_SECRET: 'product-process-test-secret-'.padEnd(48, 'x'),
    ADMIN_USERNAME: operator.username,
    ADMIN_PASSWORD: operator.password,
    TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
    TELEGRAM_API_ROOT: 'http://127.0.0.1:9',
    // no chain: manual payouts only, and nothing reaches toncenter.com
    TON_API_ROOT: 'http://127.0.0.1:9',
    PUBLIC_URL: 'https://gift.test',
    LOG_LEVEL: 'info',
    SWEEP_INTERVAL_MS: '300',
    SWEEP_GRACE_MS: '1000',
    ...overrides,
  };
}
