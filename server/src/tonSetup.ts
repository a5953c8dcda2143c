import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Env } from './env';
import type { Logger } from './lib/logger';
import { httpTonChain, TONCENTER_MAINNET, TONCENTER_TESTNET } from './lib/ton/tonChain';
import { DEMO_PAYOUT_MNEMONIC, hotWalletFromMnemonic } from './lib/ton/hotWallet';
import { configurePayouts } from './modules/withdrawals/payouts.service';

export interface TonSetup {
  /** The stand-in's demo jetton masters by symbol, when it was started here. */
  demoJettons: Record<string, string> | null;
  stop(): void;
}

/**
 * Chooses the chain and the hot wallet payouts use:
 * - TON_API_ROOT, or TON Center (mainnet, or testnet with TON_NETWORK=testnet) in production;
 * - in development without TON_API_ROOT, the local stand-in (`npm run ton-sandbox`), started here as its own process;
 * - the hot wallet from PAYOUT_WALLET_MNEMONIC; in development without one, the demo wallet. Production without one
 *   pays by hand (checked hashes only).
 */
export async function setUpTon(env: Env, logger: Logger): Promise<TonSetup> {
  let root = env.TON_API_ROOT;
  let child: ChildProcess | null = null;
  let demoJettons: Record<string, string> | null = null;
  const production = env.NODE_ENV === 'production';
  if (!root && production) root = env.TON_NETWORK === 'testnet' ? TONCENTER_TESTNET : TONCENTER_MAINNET;
  if (!root) {
    const started = await startStandIn(logger).catch((error: unknown) => {
      logger.warn({ err: error }, 'the local TON stand-in did not start: payouts are off');
      return null;
    });
    if (!started) {
      configurePayouts(null);
      return { demoJettons: null, stop: () => undefined };
    }
    root = started.root;
    child = started.child;
    demoJettons = started.jettons;
  }
  const mnemonic = env.PAYOUT_WALLET_MNEMONIC ?? (production ? undefined : DEMO_PAYOUT_MNEMONIC);
  const hotWallet = mnemonic ? await hotWalletFromMnemonic(mnemonic, env.TON_NETWORK) : null;
  configurePayouts({ chain: httpTonChain({ root, apiKey: env.TON_API_KEY }), hotWallet, network: env.TON_NETWORK });
  logger.info(
    { tonApi: root, mode: hotWallet ? 'automated' : 'manual', hotWallet: hotWallet?.contract.address.toString({ bounceable: false }) },
    'payouts configured',
  );
  return { demoJettons, stop: () => child?.kill('SIGTERM') };
}

/** Runs `npm run ton-sandbox` as a child process on a free port and waits for its ready file. */
async function startStandIn(logger: Logger) {
  const cli = path.resolve(__dirname, '../devchain/cli.ts');
  if (!existsSync(cli)) throw new Error(`${cli} is missing (the stand-in comes with the source and the development dependencies)`);
  const readyFile = path.join(tmpdir(), `gift-ton-sandbox-${process.pid}.json`);
  rmSync(readyFile, { force: true });
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--ready-file', readyFile, '--with-parent'], {
    cwd: path.resolve(__dirname, '..'),
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (!existsSync(readyFile)) {
    if (child.exitCode !== null) throw new Error(`the stand-in exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the stand-in did not start within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ready = JSON.parse(readFileSync(readyFile, 'utf8')) as { root: string; jettons: Record<string, string> };
  logger.info({ root: ready.root }, 'started the local TON stand-in');
  return { root: ready.root, jettons: ready.jettons, child };
}
