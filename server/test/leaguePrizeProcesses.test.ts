import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import mongoose, { type Types } from 'mongoose';
import { toMicros } from '@gift/shared';
import { withDatabaseName } from '../src/db/connect';
import { idOfKey } from '../src/db/ids';
import { AppConfigModel } from '../src/modules/config/appConfig.model';
import { JobLeaseModel } from '../src/modules/jobs/jobLease.model';
import { postEntry } from '../src/modules/ledger/ledger.service';
import { LedgerEntryModel } from '../src/modules/ledger/ledger.models';
import { OperationModel } from '../src/modules/ledger/operation.model';
import { leagueWeekNamed, leagueWeekOf, weekBefore } from '../src/modules/leagues/leagueWeek';
import { LeagueWeekModel, RankCountsModel, SeatModel, StandingModel } from '../src/modules/leagues/leagues.models';
import { NotificationModel } from '../src/modules/notifications/notification.model';
import { createCoin, createPlayer } from './factories';
import { expectLedgerMatchesBalances } from './ledgerInvariant';
import { productProcessEnv, productsOf, waitUntil } from './productProcess';

/**
 * A league week's prizes, paid by the compiled product's leagues job at the week's end, exactly once: across `kill -9` in
 * the middle of the payout (at each of the money engine's fault points of the `league_prize` kind, restarted each time), and
 * across two instances on one database that both run the week-end job at once. Each winner is credited once, the house
 * account `rewards:league` created exactly the table's sum, and the ledger equals the balances.
 */
jest.setTimeout(150_000);

const SERVER_DIR = path.resolve(__dirname, '..');
const BUILD = 'dist/league-crash/index.js';
const OPERATOR = { username: 'league-crash', password: 'a long operator password' };
const TIMEZONE = 'UTC';

let products: ReturnType<typeof productsOf>;

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', BUILD], { cwd: SERVER_DIR, stdio: 'pipe' });
  const mongoUrl = withDatabaseName(process.env.TEST_MONGO_URL!, mongoose.connection.name);
  products = productsOf(BUILD, (points) =>
    productProcessEnv(mongoUrl, OPERATOR, { NODE_ENV: 'test', GIFT_FAULT_POINTS: points.join(',') }),
  );
}, 120_000);

afterAll(() => products?.stopAll());

interface Winner {
  user: Types.ObjectId;
  earned: bigint;
  prize: bigint;
}

interface EndedWeek {
  week: string;
  coin: Types.ObjectId;
  players: Winner[];
  /** What the table pays in all (micro-units). */
  total: bigint;
}

/**
 * Last week, over: `count` players of Bronze earned in it (mission rewards, each a different amount, so the ranks are fixed),
 * and its prize table (as an operator saved it while the week was played) pays ranks by `prizeOf(rank)`. A fresh league coin
 * (App Config's mining coin) for each test, so an earlier test's players play no part.
 */
async function endedWeek(count: number, prizeOf: (rank: number) => string | null): Promise<EndedWeek> {
  await Promise.all([
    LeagueWeekModel.deleteMany({}),
    StandingModel.deleteMany({}),
    SeatModel.deleteMany({}),
    RankCountsModel.deleteMany({}),
  ]);
  const coin = (await createCoin())._id;
  await AppConfigModel.updateOne({ key: 'app' }, { $set: { miningCoin: coin, timezone: TIMEZONE } }, { upsert: true });
  const week = weekBefore(leagueWeekOf(new Date(), TIMEZONE).key);
  const { start } = leagueWeekNamed(week, TIMEZONE);
  const ranks = Array.from({ length: count }, (_, i) => i + 1);
  const players: Winner[] = [];
  const lines: string[] = [];
  await Promise.all(
    ranks.map(async (rank) => {
      const player = await createPlayer({ messagePermission: true });
      const earned = toMicros(String(10 * (count - rank + 1)));
      const { entryId } = await postEntry({
        userId: player._id,
        coinId: coin,
        amount: earned,
        reason: 'mission',
        idempotencyKey: `league-earn:${randomBytes(6).toString('hex')}`,
      });
      lines.push(entryId);
      const prize = prizeOf(rank);
      players[rank - 1] = { user: player._id, earned, prize: prize ? toMicros(prize) : 0n };
    }),
  );
  // the rewards were written during that week (the line's date is what the standings count)
  await LedgerEntryModel.collection.updateMany(
    { _id: { $in: lines.map((id) => new mongoose.Types.ObjectId(id)) } },
    { $set: { createdAt: new Date(start.getTime() + 3_600_000) } },
  );
  const prizes: Array<{ league: 'bronze'; fromRank: number; toRank: number; coin: Types.ObjectId; amount: number }> = [];
  for (const [index, player] of players.entries()) {
    const last = prizes.at(-1);
    if (!player.prize) continue;
    if (last && last.amount === Number(player.prize) && last.toRank === index) last.toRank = index + 1;
    else prizes.push({ league: 'bronze', fromRank: index + 1, toRank: index + 1, coin, amount: Number(player.prize) });
  }
  // the week's record under the id the product derives from its key
  await LeagueWeekModel.create({ _id: idOfKey('league-week', week), week, state: 'open', prizes });
  return { week, coin, players, total: players.reduce((sum, player) => sum + player.prize, 0n) };
}

/** The prize operations of the week's players (an earlier test paid the same week to others): how many, how many done. */
async function prizeOperations(ended: EndedWeek) {
  const users = ended.players.map((player) => player.user);
  const operations = await OperationModel.find({ kind: 'league_prize', refId: ended.week, user: { $in: users } }, { state: 1 }).lean();
  return { recorded: operations.length, done: operations.filter((op) => op.state === 'done').length };
}

/** Where the week's end stands, for a failure's message. */
async function weekState(ended: EndedWeek) {
  const [week, operations, leases] = await Promise.all([
    LeagueWeekModel.findOne({ week: ended.week }, { state: 1 }).lean(),
    prizeOperations(ended),
    JobLeaseModel.find({}, { name: 1, holder: 1, heldUntil: 1, lastPassStartedAt: 1 }).lean(),
  ]);
  return { week: week?.state, operations, leases, now: new Date() };
}

/** The week's end carried out: the week closed and every prize operation done. */
async function weekPaid(ended: EndedWeek): Promise<boolean> {
  const [week, operations] = await Promise.all([LeagueWeekModel.findOne({ week: ended.week }).lean(), prizeOperations(ended)]);
  const winners = ended.players.filter((player) => player.prize > 0n).length;
  return week?.state === 'closed' && operations.recorded === winners && operations.done === winners;
}

/**
 * Exactly once: each winner has one prize line of their rank's amount and one "prize won" message, the others none; each
 * balance equals its ledger lines (earned + prize); the prizes' house account created exactly the table's total.
 */
async function expectPaidOnce(ended: EndedWeek) {
  const users = ended.players.map((player) => player.user);
  const lines = await LedgerEntryModel.find({ user: { $in: users }, reason: 'league_prize' }, { user: 1, amount: 1, state: 1 }).lean();
  const messages = await NotificationModel.find({ user: { $in: users }, event: 'prize-won' }, { user: 1 }).lean();
  for (const player of ended.players) {
    const own = lines.filter((line) => String(line.user) === String(player.user));
    expect({ player: String(player.user), prizes: own.map((line) => [line.state, BigInt(line.amount)]) }).toEqual({
      player: String(player.user),
      prizes: player.prize ? [['posted', player.prize]] : [],
    });
    expect(messages.filter((message) => String(message.user) === String(player.user))).toHaveLength(player.prize ? 1 : 0);
    expect((await expectLedgerMatchesBalances(player.user)).get(String(ended.coin))).toBe(player.earned + player.prize);
  }
  const operations = await OperationModel.find({ kind: 'league_prize', refId: ended.week, user: { $in: users } }).lean();
  const house = operations.flatMap((op) => op.postings.filter((posting) => posting.account !== 'player'));
  expect(new Set(house.map((posting) => posting.account))).toEqual(new Set(['rewards:league']));
  expect(house.reduce((sum, posting) => sum + BigInt(posting.amount), 0n)).toBe(-ended.total);
  expect(lines.reduce((sum, line) => sum + BigInt(line.amount), 0n)).toBe(ended.total);
}

/** Eight players: ranks 1–3 win 5, ranks 4–6 win 2.5, ranks 7 and 8 nothing. */
const TABLE = (rank: number) => (rank <= 3 ? '5' : rank <= 6 ? '2.5' : null);

it('killed mid-payout at each league_prize fault point and restarted, the job finishes: each winner credited once', async () => {
  const ended = await endedWeek(8, TABLE);
  // the job at start pays the first prize and dies there: recorded; then its balance moved, no line; then its line and message,
  // not marked done; each restart carries on from what the last one left
  for (const point of ['ledger:after-record:league_prize', 'ledger:after-apply:league_prize', 'ledger:after-step:league_prize']) {
    const crashing = products.start([point]);
    await products.crashedAt(crashing, point);
    expect(await weekPaid(ended)).toBe(false);
  }
  // mid-payout: the first winner's prize reached (done or not, as the engine marks it), the others not
  expect((await prizeOperations(ended)).recorded).toBe(1);

  const product = products.start();
  try {
    await waitUntil(() => weekPaid(ended), 'the week paid', { state: () => weekState(ended) });
  } finally {
    await products.stop(product);
  }
  await expectPaidOnce(ended);
});

it('two instances both running the week-end job at once (one stalled past its lease mid-payout) pay each winner once', async () => {
  // enough winners that the payout is still under way when the test stalls its instance
  const ended = await endedWeek(60, (rank) => (rank <= 30 ? '1.5' : '0.25'));
  const instances = [products.start(), products.start()];
  const logs = instances.map((instance) => {
    const lines: string[] = [];
    instance.child.stdout!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
    return lines;
  });
  try {
    await Promise.all(instances.map((instance) => instance.listening));
    // leases let one instance run the job at a time: the one holding it pays; it stalls (SIGSTOP, as a long pause would)
    await waitUntil(async () => (await prizeOperations(ended)).recorded > 0, 'the payout to begin');
    const holderPid = async () => Number((await JobLeaseModel.findOne({ name: 'leagues' }).lean())?.holder?.split(':')[1]);
    const holding = await holderPid();
    const stalled = instances.find((instance) => instance.child.pid === holding)!;
    const other = instances.find((instance) => instance !== stalled)!;
    stalled.child.kill('SIGSTOP');
    const atStall = (await prizeOperations(ended)).recorded;
    expect(atStall).toBeLessThan(60);
    // its lease runs out; the other instance takes it and runs the week-end job, paying on
    await waitUntil(
      async () => (await holderPid()) === other.child.pid && (await prizeOperations(ended)).recorded > atStall,
      'the other instance to pay',
    );
    // the stalled one wakes in the middle of its payout and carries on with it, while the other pays the same week
    const atResume = (await prizeOperations(ended)).recorded;
    stalled.child.kill('SIGCONT');
    await waitUntil(() => weekPaid(ended), 'the week paid', { state: () => weekState(ended) });
    console.log(`league prizes, two instances: ${atStall} of 60 paid at the stall, ${atResume} when the stalled one resumed`);
    // the stalled instance did run the rest of its week-end step: it stopped only before its next step, having lost the lease
    const stalledLog = logs[instances.indexOf(stalled)]!;
    await waitUntil(async () => stalledLog.join('').includes('leagues: the lease was lost mid-pass'), "the stalled instance's pass ended");
  } finally {
    await Promise.all(instances.map((instance) => products.stop(instance)));
  }
  await expectPaidOnce(ended);
});
