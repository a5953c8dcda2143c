import { createHash } from 'node:crypto';
import { fromMicros } from '@gift/shared';
import { objectId } from '../../db/ids';
import { AppError, badInput } from '../../lib/errors';
import type { Operator } from '../audit/audit.service';
import { findCoin } from '../coins/giftCoins.service';
import { balanceOf, creditsToTakeBack } from '../ledger/ledger.service';
import { clawBacksOfEntries, TAKEN_BACK_REASONS } from '../clawbacks/clawBack.service';
import { carryOutCleanUp, type CleanUpPlan, type PlannedCredit } from './clusterCleanUp.kinds';
import { ClusterCleanUpModel } from './clusterCleanUp.model';
import { UserModel } from './user.model';

/** A cluster as the Risk tab links it (the players list's filter). */
interface Cluster {
  referrer?: string;
  joinNetwork?: string;
  walletAddresses?: string;
}

/** The most players one clean-up bans. */
const MAX_MEMBERS = 1000;

interface Plan {
  key: string;
  members: number;
  ban: { user: string; status: string }[];
  credits: PlannedCredit[];
}

/** The cluster's players, oldest first: the same filter the Risk tab's "Show these players" opens. */
async function membersOf(cluster: Cluster) {
  const filter: Record<string, unknown> = {};
  if (cluster.referrer) filter.referrer = objectId(cluster.referrer);
  if (cluster.joinNetwork) filter.joinNetwork = cluster.joinNetwork;
  if (cluster.walletAddresses) filter.walletAddresses = cluster.walletAddresses;
  const members = await UserModel.find(filter, { _id: 1, status: 1 })
    .sort({ _id: 1 })
    .limit(MAX_MEMBERS + 1)
    .lean();
  if (members.length > MAX_MEMBERS) throw badInput({ cluster: 'At most 1000 players at once' });
  if (!members.length) throw badInput({ cluster: 'No player is in this cluster' });
  return members;
}

/**
 * What a clean-up of the cluster would do now: the players not yet banned, and every credit a claw-back may take (their own
 * rewards, mining and gifts; the referral rewards paid for them to referrers outside the cluster) not taken back already. Its key
 * hashes all of it, so a confirmation of what the operator saw finds the same plan, and a changed cluster is seen as changed.
 */
async function planOf(cluster: Cluster): Promise<Plan> {
  const members = await membersOf(cluster);
  const inCluster = new Set(members.map((member) => String(member._id)));
  const [own, referrals] = await creditsToTakeBack(
    members.map((member) => member._id),
    TAKEN_BACK_REASONS,
  );
  const found = [
    ...own.map((entry) => ({ entry, side: 'member' as const })),
    ...referrals.filter(({ user }) => !inCluster.has(String(user))).map((entry) => ({ entry, side: 'referrer' as const })),
  ];
  const open = new Set((await clawBacksOfEntries(found.map(({ entry }) => String(entry._id)))).map((claw) => claw.entry));
  const credits = found
    .filter(({ entry }) => !open.has(String(entry._id)))
    .map(({ entry, side }) => ({
      entry: String(entry._id),
      user: String(entry.user),
      coin: String(entry.coin),
      amount: Number(entry.amount),
      side,
    }));
  const ban = members
    .filter((member) => member.status !== 'banned')
    .map((member) => ({ user: String(member._id), status: member.status ?? 'active' }));
  const canonical = { cluster: Object.entries(cluster).sort(), ban, credits };
  const key = createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
  return { key, members: members.length, ban, credits };
}

interface CoinTotal {
  symbol: string;
  /** What is taken back in all, what the balances cover (taken at once), and what stays owed. */
  amount: string;
  now: string;
  owed: string;
}

/** Per coin: the whole amount, and what is taken now (`taken(user, coin, amount)`), with the players it comes from. */
async function totals(
  credits: PlannedCredit[],
  taken: (user: string, coin: string, amount: bigint) => Promise<bigint> | bigint,
): Promise<{ players: number; coins: CoinTotal[] }> {
  const byHolding = new Map<string, { user: string; coin: string; amount: bigint }>();
  for (const credit of credits) {
    const key = `${credit.user}:${credit.coin}`;
    const holding = byHolding.get(key) ?? { user: credit.user, coin: credit.coin, amount: 0n };
    holding.amount += BigInt(credit.amount);
    byHolding.set(key, holding);
  }
  const byCoin = new Map<string, { amount: bigint; now: bigint }>();
  for (const holding of byHolding.values()) {
    const coin = byCoin.get(holding.coin) ?? { amount: 0n, now: 0n };
    coin.amount += holding.amount;
    coin.now += await taken(holding.user, holding.coin, holding.amount);
    byCoin.set(holding.coin, coin);
  }
  const coins = [];
  for (const [coinId, coin] of byCoin) {
    const found = await findCoin(coinId, { symbol: 1 });
    coins.push({
      symbol: found?.symbol ?? '',
      amount: fromMicros(coin.amount),
      now: fromMicros(coin.now),
      owed: fromMicros(coin.amount - coin.now),
    });
  }
  return { players: new Set(credits.map((credit) => credit.user)).size, coins: coins.sort((a, b) => a.symbol.localeCompare(b.symbol)) };
}

/** What the console reads of a plan: players banned, and per side (the cluster's players, their referrers) what is taken back. */
async function summary(plan: Plan, taken: (user: string, coin: string, amount: bigint) => Promise<bigint> | bigint) {
  return {
    key: plan.key,
    players: plan.members,
    ban: plan.ban.length,
    members: await totals(
      plan.credits.filter((credit) => credit.side === 'member'),
      taken,
    ),
    referrers: await totals(
      plan.credits.filter((credit) => credit.side === 'referrer'),
      taken,
    ),
  };
}

/**
 * The preview the operator confirms: what a clean-up of this cluster would do now. What the balances cover is taken at once,
 * per player and coin, as each claw-back does; the rest is owed.
 */
export async function previewCleanUp(cluster: Cluster) {
  const plan = await planOf(cluster);
  return summary(plan, async (user, coin, amount) => {
    const balance = await balanceOf(user, coin);
    return balance < amount ? balance : amount;
  });
}

/** What a plan did: its claw-backs as they stand (taken so far, the rest owed). */
async function outcome(plan: Plan) {
  const claws = await clawBacksOfEntries(plan.credits.map((credit) => credit.entry));
  return summary(plan, (user, coin) => {
    const mine = claws.filter((claw) => String(claw.user) === user && String(claw.coin) === coin);
    return mine.reduce((sum, claw) => sum + BigInt(claw.taken as number), 0n);
  });
}

const planFrom = (action: InstanceType<typeof ClusterCleanUpModel>): Plan => ({
  key: action.key,
  members: action.players,
  ban: action.ban.map(({ user, status }) => ({ user: user!, status: status! })),
  credits: action.credits.map((credit) => ({ ...(credit.toObject() as PlannedCredit) })),
});

/**
 * Confirmations of one plan that reach this process together share one run of its operation: twenty operators confirming at
 * once ban each player once rather than twenty times. Runs on other instances, or a retry, or the sweep, are harmless beside
 * it (each part of the operation is keyed), only slower.
 */
const running = new Map<string, Promise<unknown>>();
function carryOutOnce(cleanUp: CleanUpPlan, operator: Operator): Promise<unknown> {
  let run = running.get(cleanUp.key);
  if (!run) {
    run = carryOutCleanUp(cleanUp, operator).finally(() => running.delete(cleanUp.key));
    running.set(cleanUp.key, run);
  }
  return run;
}

/**
 * Bans the cluster and takes back what it earned, as the preview with this key said: one `cluster-cleanup` operation of the
 * engine (clusterCleanUp.kinds.ts), recorded once per plan however many operators confirm at once, whose steps carry it out;
 * a confirmation of a plan already recorded (a retry after a crash, a second operator) finishes it and answers what was done,
 * and the engine's sweep finishes one a process died in. A cluster changed since the preview (a new player, a new credit) is
 * refused: the operator previews again.
 */
export async function cleanUpCluster(
  input: { cluster: Cluster; key: string; statusReason?: string; fa?: { statusReason?: string } },
  operator: Operator,
) {
  // a plan already recorded is carried on as written: the cluster it bans no longer looks as it did
  const written = await ClusterCleanUpModel.findOne({ key: input.key });
  const plan = written ? planFrom(written) : await planOf(input.cluster);
  if (plan.key !== input.key) throw badInput({ key: 'The cluster changed since the preview: look at it again' });
  const reasons = written ?? input;
  const cleanUp: CleanUpPlan = {
    key: plan.key,
    cluster: { ...((written?.cluster as Cluster | undefined) ?? input.cluster) },
    players: plan.members,
    ban: plan.ban,
    credits: plan.credits,
    statusReason: reasons.statusReason ?? '',
    fa: { statusReason: reasons.fa?.statusReason ?? '' },
  };
  await carryOutOnce(cleanUp, operator);
  const action = await ClusterCleanUpModel.findOne({ key: input.key });
  if (!action) throw new AppError('NOT_FOUND');
  return { ...(await outcome(planFrom(action))), status: action.status === 'done' ? ('done' as const) : ('running' as const) };
}
