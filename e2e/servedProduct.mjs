// Starts the product as `npm start` runs it (embedded database with demo data, built front ends) on a free loopback port.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/**
 * The served product at `base`; `stop()` ends the process this started. With `botToken`, the product has its bot (its Bot API
 * at `botApiRoot`): players open it from Telegram, and a plain browser gets the sign-in page.
 */
export async function startServedProduct({ botToken, botApiRoot } = {}) {
  const port = await freePort();
  // the demo as `npm start` gives it: embedded database, no bot, so the demo player opens the app
  const env = { ...process.env, PORT: String(port), NODE_ENV: 'development', LOG_LEVEL: 'silent' };
  for (const name of ['MONGO_URL', 'TELEGRAM_BOT_TOKEN', 'JWT_SECRET', 'ADMIN_USERNAME', 'ADMIN_PASSWORD']) delete env[name];
  if (botToken) Object.assign(env, { TELEGRAM_BOT_TOKEN: botToken, TELEGRAM_API_ROOT: botApiRoot });
  // a fresh demo of its own each time, which leaves the data `npm start` keeps in .data/ alone
  const dataFile = path.join(tmpdir(), `gift-served-product-${port}.json`);
  Object.assign(env, { EMBEDDED_DATA_FILE: dataFile, FRESH_DEMO: '1' });
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(root, 'server', 'src', 'index.ts')],
    {
      cwd: path.join(root, 'server'),
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start within 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    base,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dataFile, { force: true });
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}
