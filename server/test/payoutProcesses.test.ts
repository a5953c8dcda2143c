import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import mongoose, { Types } from 'mongoose';
import { toNano } from '@ton/core';
import { toMicros } from '@gift/shared';
import { withDatabaseName } from '../src/db/connect';
import { WithdrawalModel } from '../src/modules/withdrawals/withdrawal.model';
import { clawBack, collectOwed } from '../src/modules/clawbacks/clawBack.service';
import { createCoin, fund, withdrawalOf } from './factories';
import { expectLedgerMatchesBalances } from './ledgerInvariant';
import { productProcessEnv } from './productProcess';
import { PAYOUT_FAULT_POINTS, startHotWalletChain } from './tonChain';

/**
 * Payouts across processes. Across `kill -9`: the compiled product, paying from its own hot wallet on the stand-in chain, is
 * killed at each of the engine's points in a payout (its batch's operation recorded, after claiming, signing and sending
 * it, a confirmation's decision recorded) and started again. Across instances: two of them share one database and one hot
 * wallet. The chain's balances then show every withdrawal paid exactly once, and the ledger equals the balances.
 */
jest.setTimeout(180_000);

const SERVER_DIR = path.resolve(__dirname, '..');
const BUILD = 'dist/payout-crash/index.js';
const OPERATOR = { username: 'payout-crash', password: 'a long operator password' };

let ton: Awaited<ReturnType<typeof startHotWalletChain>>;
let mongoUrl: string;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs', BUILD], { cwd: SERVER_DIR, stdio: 'pipe' });
  ton = await startHotWalletChain();
  mongoUrl = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await ton?.close();
});

/** Starts the product with these fault points armed; resolves when it exits (a fault point kills it). */
function startProduct(faultPoints: string[]) {
  const child = spawn(process.execPath, ['--enable-source-maps', BUILD], {
    cwd: SERVER_DIR,
    env: productProcessEnv(mongoUrl, OPERATOR, {
      NODE_ENV: 'test',
      GIFT_FAULT_POINTS: faultPoints.join(','),
      ...ton.productEnv,
      SWEEP_GRACE_MS: '100',
    }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once('exit', (_code, signal) => {
      children.delete(child);
      resolve({ signal, stderr });
    }),
  );
  return { child, exited };
}

async function waitFor(done: () => Promise<boolean>, what: string, seconds = 60) {
  for (let tries = 0; tries < seconds * 5; tries++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`gave up waiting for ${what}`);
}

it.each(PAYOUT_FAULT_POINTS)('a payout killed at %s is finished by the restarted product, each withdrawal paid once', async (point) => {
  const [tonCoin, gift] = await Promise.all([
    createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1' }),
    createCoin({ network: 'jetton', jettonMaster: ton.standIn.jettons.GIFT, decimals: 9, minWithdraw: '0.1' }),
  ]);
  const requests = await Promise.all(Array.from({ length: 6 }, (_, i) => withdrawalOf(i % 2 ? gift : tonCoin, `${i + 1}.5`, '100')));
  const ids = requests.map((r) => r.withdrawal.id);
  await WithdrawalModel.updateMany({ _id: { $in: ids } }, { $set: { status: 'approved', approvedAt: new Date() } });

  // the payouts job reaches the point and the process kills itself there, as kill -9 would
  const crashed = startProduct([point]);
  const { signal, stderr } = await crashed.exited;
  expect(signal).toBe('SIGKILL');
  expect(stderr).toContain(`fault point ${point}: killing the process`);

  const restarted = startProduct([]);
  try {
    await waitFor(
      async () => (await WithdrawalModel.countDocuments({ _id: { $in: ids }, status: 'done' })) === ids.length,
      'every payout confirmed',
    );
  } finally {
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  }

  for (const { user, coin, address, withdrawal } of requests) {
    expect(await ton.received(coin, address)).toBe(toNano(withdrawal.amount));
    const balances = await expectLedgerMatchesBalances(user._id);
    expect(balances.get(coin.id)).toBe(toMicros('100') - toMicros(withdrawal.amount));
  }
  // the hot wallet sent each payout's message once: one outgoing message per withdrawal, whatever was re-sent
  await ton.expectEachSentOnce(ids);
});

it('two instances of the product on one database pay 100 approved withdrawals, each exactly once', async () => {
  const coin = await createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1' });
  const requests = await Promise.all(Array.from({ length: 100 }, () => withdrawalOf(coin, '0.75', '10')));
  const ids = requests.map((r) => r.withdrawal.id);
  await WithdrawalModel.updateMany({ _id: { $in: ids } }, { $set: { status: 'approved', approvedAt: new Date() } });

  // both at once, as `docker compose up --scale app=2` starts them; each one offers to run the sender (its payouts job)
  const instances = [startProduct([]), startProduct([])];
  try {
    await waitFor(
      async () => (await WithdrawalModel.countDocuments({ _id: { $in: ids }, status: 'done' })) === ids.length,
      'every payout confirmed',
      90,
    );
  } finally {
    for (const instance of instances) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.exited));
  }
  const balances = await Promise.all(requests.map(({ address }) => ton.received(coin, address)));
  expect(balances.filter((balance) => balance === toNano('0.75'))).toHaveLength(100);
  await ton.expectEachSentOnce(ids);
  for (const { user } of requests.slice(0, 10)) expect((await expectLedgerMatchesBalances(user._id)).get(coin.id)).toBe(toMicros('9.25'));
});

it('a payout held for a claw-back is not sent while owed, and across kill -9 once it may go is paid exactly once', async () => {
  const coin = await createCoin({ network: 'ton', decimals: 9, minWithdraw: '0.1' });
  const [held, free] = [await withdrawalOf(coin, '6', '10'), await withdrawalOf(coin, '6', '10')];
  const ids = [held.withdrawal.id, free.withdrawal.id];
  await WithdrawalModel.updateMany({ _id: { $in: ids } }, { $set: { status: 'approved', approvedAt: new Date() } });
  // after the approval, the held player's credit is taken back: 4 taken, 6 owed
  await clawBack(held.user.id, { entryId: held.entryId, reason: 'A farmed gift' }, { id: String(new Types.ObjectId()), username: 'crash' });

  // killed after sending the free one's batch, and started again: the free one is paid, the held one waits
  const first = startProduct(['ledger:after-step:payout-batch:send']);
  expect((await first.exited).signal).toBe('SIGKILL');
  let restarted = startProduct([]);
  try {
    await waitFor(async () => (await WithdrawalModel.findById(free.withdrawal.id).lean())?.status === 'done', 'the free payout confirmed');
    await waitFor(
      async () => /owes a claw-back/.test((await WithdrawalModel.findById(held.withdrawal.id).lean())?.chainNote ?? ''),
      'the held payout noted',
    );
  } finally {
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  }
  const waiting = await WithdrawalModel.findById(held.withdrawal.id).lean();
  expect(waiting?.status).toBe('approved');
  expect(waiting?.payout?.batch ?? null).toBeNull();
  expect(await ton.received(coin, held.address)).toBe(0n);

  // the player is credited, the claw-back settled; the product dies before confirming the payout, and is started again
  await fund(held.user._id, coin._id, '6');
  await collectOwed();
  const second = startProduct(['ledger:after-record:withdrawal-decision']);
  expect((await second.exited).signal).toBe('SIGKILL');
  restarted = startProduct([]);
  try {
    await waitFor(async () => (await WithdrawalModel.findById(held.withdrawal.id).lean())?.status === 'done', 'the held payout confirmed');
  } finally {
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  }
  for (const { address } of [held, free]) expect(await ton.received(coin, address)).toBe(toNano('6'));
  await ton.expectEachSentOnce(ids);
  expect((await expectLedgerMatchesBalances(held.user._id)).get(coin.id)).toBe(0n);
  expect((await expectLedgerMatchesBalances(free.user._id)).get(coin.id)).toBe(toMicros('4'));
});
