import type { Logger } from './logger';

/** What the handlers need of the process: `process` itself, or a stand-in in a test. */
interface CrashingProcess {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error, origin: string) => void): unknown;
  exit(code: number): void;
}

/**
 * A promise nobody awaited that failed, or an exception nothing caught, leaves the process in a state no code
 * planned for: it is logged once (a stable message to search the logs for, with the error) and the process exits
 * with 1, a crash the supervisor restarts and the recovery sweep then finishes after.
 */
export function exitOnUnhandledErrors(logger: Logger, target: CrashingProcess = process): void {
  target.on('unhandledRejection', (reason) => {
    logger.fatal({ err: reason }, 'unhandled rejection: exiting');
    target.exit(1);
  });
  target.on('uncaughtException', (error, origin) => {
    logger.fatal({ err: error, origin }, 'uncaught exception: exiting');
    target.exit(1);
  });
}
