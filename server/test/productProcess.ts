import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
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

/** The compiled product started by a test: its process, where it listens once it does, and how it ended. */
export interface StartedProduct {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` once its log says 'listening'; rejects if it exits first. */
  listening: Promise<string>;
  /** Resolves when it exits: the signal that ended it (SIGKILL at a fault point) and what it wrote to stderr. */
  exited: Promise<{ signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `build` (a bundle under server/, as scripts/build.mjs writes it) with this environment. */
export function startProductProcess(build: string, env: NodeJS.ProcessEnv): StartedProduct {
  const child = spawn(process.execPath, ['--enable-source-maps', build], {
    cwd: path.resolve(__dirname, '..'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once('exit', (_code, signal) => resolve({ signal, stderr })),
  );
  const listening = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === 'listening') resolve(`http://127.0.0.1:${entry.port}`);
    });
    void exited.then(({ stderr: written }) => reject(new Error(`the product exited before listening:\n${written.slice(-2000)}`)));
  });
  // a test that never awaits it (the process was meant to die) does not fail on the rejection
  listening.catch(() => undefined);
  return { child, listening, exited };
}

/**
 * The products a test file starts, as `kill -9` tests start them: `start(points)` with those fault points armed (none: as in
 * production), `stop` (SIGTERM, a clean stop), `crashedAt` (it must die at the point, by SIGKILL); `stopAll` in afterAll kills
 * whatever still runs.
 */
export function productsOf(build: string, envOf: (points: string[]) => NodeJS.ProcessEnv) {
  const running = new Set<StartedProduct>();
  return {
    /** `changes`: variables set, or removed when undefined (`PUBLIC_URL: undefined`: the bot long-polls). */
    start(points: string[] = [], changes: Record<string, string | undefined> = {}): StartedProduct {
      const env = { ...envOf(points), ...changes };
      for (const [name, value] of Object.entries(changes)) if (value === undefined) delete env[name];
      const product = startProductProcess(build, env);
      running.add(product);
      void product.exited.then(() => running.delete(product));
      return product;
    },
    async stop(product: StartedProduct): Promise<void> {
      product.child.kill('SIGTERM');
      await product.exited;
    },
    /** Resolves once the product killed itself at `point`; fails if it ended otherwise. */
    async crashedAt(product: StartedProduct, point: string): Promise<void> {
      const { signal, stderr } = await product.exited;
      const killed = signal === 'SIGKILL' && stderr.includes(`fault point ${point}: killing the process`);
      expect(killed ? 'killed at the point' : stderr.slice(-3000)).toBe('killed at the point');
    },
    async stopAll(): Promise<void> {
      for (const product of running) product.child.kill('SIGKILL');
      await Promise.all([...running].map((product) => product.exited));
    },
  };
}

/**
 * Reads `done` every 100 ms until it holds; fails naming `what` (and what `state` reads then) after `seconds`: a bound far
 * above the need, not a timing.
 */
export async function waitUntil(
  done: () => Promise<boolean>,
  what: string,
  { seconds = 60, state }: { seconds?: number; state?: () => Promise<unknown> } = {},
): Promise<void> {
  for (const until = Date.now() + seconds * 1000; Date.now() < until;) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}${state ? `: ${JSON.stringify(await state())}` : ''}`);
}
