/**
 * `npm run ton-sandbox -- --port <n> [--ready-file <path>]`: the TON Center-compatible stand-in as its own
 * process. It prints where it listens and writes the same as JSON to the ready file (default
 * `.ton-sandbox.json` in the working directory): `{ root, hotWallet, jettons }`. Point the product at it with
 * TON_API_ROOT=<root>. It stops on SIGINT/SIGTERM, and when its parent closes its standard input (--with-parent).
 */
import { writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startTonStandIn } from './standIn';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8081' },
    'ready-file': { type: 'string', default: '.ton-sandbox.json' },
    'with-parent': { type: 'boolean', default: false },
  },
});

async function main() {
  const standIn = await startTonStandIn({ port: Number(values.port) });
  const readyFile = path.resolve(values['ready-file']);
  writeFileSync(
    readyFile,
    JSON.stringify({ root: standIn.root, hotWallet: standIn.hotWallet, jettons: standIn.jettons, pid: process.pid }, null, 2),
  );
  console.log(
    `TON sandbox (TON Center v2 API) at ${standIn.root}; hot wallet ${standIn.hotWallet}; jettons ${JSON.stringify(standIn.jettons)}`,
  );

  const stop = async () => {
    rmSync(readyFile, { force: true });
    await standIn.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (values['with-parent']) {
    process.stdin.resume();
    process.stdin.on('end', () => void stop());
    process.stdin.on('close', () => void stop());
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
