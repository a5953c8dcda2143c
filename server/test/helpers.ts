import { loadEnv, type Env } from '../src/env';
import { createLogger } from '../src/lib/logger';

/** A test environment: silent logs, a known bot token and JWT secret. */
export const TEST_BOT_TOKEN = '123456789:AAHtestTokenForTheTestSuiteOnly_abcdef';
export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    TELEGRAM_BOT_TOKEN: TEST_BOT_TOKEN,
    JWT_SECRET: 'test-secret-'.padEnd(40, 'x'),
    ...overrides,
  });
}
export const silentLogger = createLogger('silent');
