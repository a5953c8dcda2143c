import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** Runs `failure` in a process of its own that installed the handlers, as the product's entry does; its log lines and exit. */
function crashWith(failure: string) {
  const code = [
    "const { exitOnUnhandledErrors } = require('./src/lib/processCrash.ts');",
    "const { createLogger } = require('./src/lib/logger.ts');",
    "exitOnUnhandledErrors(createLogger('info'));",
    'setTimeout(() => console.log(\'{"msg":"still running"}\'), 200);',
    failure,
  ].join('\n');
  const child = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], {
    cwd: path.resolve(__dirname, '../..'),
    encoding: 'utf8',
    timeout: 20_000,
  });
  const lines = child.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level?: number; msg: string; err?: { message: string } });
  return { status: child.status, lines };
}

describe('a failure nothing handled', () => {
  it('a rejected promise nobody awaited is logged once as fatal and the process exits with 1', () => {
    const { status, lines } = crashWith("Promise.reject(new Error('payout round lost its lease'));");
    expect(status).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 60,
        msg: 'unhandled rejection: exiting',
        err: expect.objectContaining({ message: 'payout round lost its lease' }),
      }),
    ]);
  });

  it('an exception thrown from a timer is logged once as fatal and the process exits with 1', () => {
    const { status, lines } = crashWith("setTimeout(() => { throw new Error('sweep broke'); }, 10);");
    expect(status).toBe(1);
    expect(lines).toEqual([
      expect.objectContaining({ level: 60, msg: 'uncaught exception: exiting', err: expect.objectContaining({ message: 'sweep broke' }) }),
    ]);
  });
});
