import { Address } from '@ton/core';
import { DEFAULT_RISK_WEIGHTS, riskHolds as holdsAt, type RiskLevel, type RiskSignal } from '@gift/shared';
import type { Id } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { recordAudit, type Operator } from '../audit/audit.service';
import { getAppConfig } from '../config/config.service';
import { claimTimesOf } from '../missions/missions.service';
import {
  countJoinedFromNetwork,
  friendsOfPlayers,
  playersDueForRisk,
  playersWithWallets,
  recordRiskClearance,
  riskStandings,
  riskSubject,
  saveRisk,
} from '../users/players.service';
import { friendlyWalletAddresses, linkTimesOf } from '../wallet/wallet.service';
import { withdrawalTimesOf } from '../withdrawals/withdrawals.service';
import { estimatedTelegramSignUp } from './riskRules';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Enough of a player's records to judge them; a farm's referrer with more friends than this is judged on these. */
const MAX_FRIENDS_READ = 5_000;
const MAX_CLAIMS_READ = 200;
const MAX_INVITERS_READ = 200;

/** The thresholds of each signal: where it starts to count and where it counts in full. */
const RISK_THRESHOLDS = {
  /** A Telegram account younger than this when the player joined is new (half strength up to the second figure). */
  newAccountDays: 30,
  youngAccountDays: 180,
  /** Friends joining within one minute: from `friendBurstFrom` it counts, at `friendBurstFull` in full. */
  friendBurstFrom: 5,
  friendBurstFull: 20,
  /** Friends joining within the same second. */
  sameSecondFrom: 3,
  sameSecondFull: 5,
  /** Friends who never did a mission: counted once the player has this many friends, in proportion to the share idle. */
  idleFriendsFrom: 5,
  /** Friends of friends (the second and third levels): from / full. */
  deepTreeFrom: 20,
  deepTreeFull: 200,
  /** Players who first launched from one network within `networkWindowMinutes` of this player: from / full. */
  networkWindowMinutes: 10,
  networkFrom: 5,
  networkFull: 12,
  /** Claims made less than this many seconds after Go: from / full. */
  fastClaimSeconds: 3,
  fastClaimsFrom: 3,
  fastClaimsFull: 10,
  /** A withdrawal requested within this many minutes of linking its wallet. */
  freshWalletMinutes: 10,
  /**
   * A slow farm: friends joining steadily over an hour (from / full) or a day, below the one-minute burst (one every 16 s is
   * under 4 a minute, and 225 an hour).
   */
  paceHourFrom: 6,
  paceHourFull: 20,
  paceDayFrom: 15,
  paceDayFull: 60,
  /**
   * Friends who never acted beyond joining, judged a day after they joined: no mission, no wallet, never seen after their first
   * day. Counted from / full, or by their share of the friends judged once more than half of at least `dormantShareOf` are.
   */
  dormantAfterHours: 24,
  dormantFrom: 5,
  dormantFull: 20,
  dormantShareOf: 5,
  /** The most friends who first launched from one network, over any time (a farm spreads its joins over days): from / full. */
  sameNetworkFrom: 3,
  sameNetworkFull: 10,
  /** Friends sharing a wallet with another friend or with the player: from / full. */
  sharedWalletFriendsFrom: 2,
  sharedWalletFriendsFull: 5,
};
const T = RISK_THRESHOLDS;

export interface SignalReading {
  signal: RiskSignal;
  /** 0 to 1: how strongly the evidence shows it. */
  strength: number;
  /** The figures behind it, which the console puts into words. */
  evidence: Record<string, string | number>;
  /** The console's filter of players that shows the cluster behind it. */
  cluster?: Record<string, string> | null;
}

/** From 0 at `from` to 1 at `full`, in proportion between. */
function ramp(value: number, from: number, full: number): number {
  if (value < from) return 0;
  return Math.min(1, (value - from + 1) / (full - from + 1));
}

/** The most events within any window of `windowMs` (times sorted ascending). */
function mostWithin(times: number[], windowMs: number): number {
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

function rawAddress(text: string): string | null {
  try {
    return Address.parse(text).toRawString();
  } catch {
    return null;
  }
}

/** Every signal of one player, read from their records, each with its strength and evidence. */
async function readSignals(playerId: Id, now: Date): Promise<SignalReading[] | null> {
  const player = await riskSubject(playerId);
  if (!player) return null;
  const id = String(player._id);
  const joinedAt = player.createdAt ?? now;
  const [friends, claims, withdrawals, linkTimes, sharers] = await Promise.all([
    friendsOfPlayers([player._id], MAX_FRIENDS_READ),
    claimTimesOf(player._id, MAX_CLAIMS_READ),
    withdrawalTimesOf(player._id, 50),
    linkTimesOf(player._id),
    player.walletAddresses?.length ? playersWithWallets(player.walletAddresses, player._id, 100) : Promise.resolve([]),
  ]);
  const readings: SignalReading[] = [];

  // Telegram ids grow with time: an account made days before it joined here is often made for here
  const signUp = estimatedTelegramSignUp(player.telegramId);
  const ageDays = signUp ? Math.max(0, Math.floor((joinedAt.getTime() - signUp.getTime()) / DAY_MS)) : null;
  readings.push({
    signal: 'newAccount',
    strength: ageDays === null ? 0 : ageDays < T.newAccountDays ? 1 : ageDays < T.youngAccountDays ? 0.5 : 0,
    evidence: { ageDays: ageDays ?? -1 },
  });
  readings.push({ signal: 'notPremium', strength: player.isPremium ? 0 : 1, evidence: {} });

  const joinTimes = friends.map((friend) => (friend.createdAt ?? now).getTime()).sort((a, b) => a - b);
  const perMinute = mostWithin(joinTimes, MINUTE_MS);
  const sameSecond = mostWithin(
    joinTimes.map((time) => Math.floor(time / 1000) * 1000),
    1,
  );
  const byReferrer = { referrer: id };
  readings.push({
    signal: 'friendBurst',
    strength: ramp(perMinute, T.friendBurstFrom, T.friendBurstFull),
    evidence: { perMinute, friends: friends.length },
    cluster: byReferrer,
  });
  readings.push({
    signal: 'sameSecondJoins',
    strength: ramp(sameSecond, T.sameSecondFrom, T.sameSecondFull),
    evidence: { sameSecond },
    cluster: byReferrer,
  });
  const idle = friends.filter((friend) => !friend.missionsCount).length;
  readings.push({
    signal: 'idleFriends',
    strength: friends.length >= T.idleFriendsFrom ? idle / friends.length : 0,
    evidence: { idle, friends: friends.length },
    cluster: byReferrer,
  });

  // a slow farm: the pace of friends over an hour and a day, friends who never came back, and friends sharing a network or a
  // wallet however far apart they joined
  const perHour = mostWithin(joinTimes, HOUR_MS);
  const perDay = mostWithin(joinTimes, DAY_MS);
  readings.push({
    signal: 'friendPace',
    strength: Math.max(ramp(perHour, T.paceHourFrom, T.paceHourFull), ramp(perDay, T.paceDayFrom, T.paceDayFull)),
    evidence: { perHour, perDay },
    cluster: byReferrer,
  });
  const judgedBefore = now.getTime() - T.dormantAfterHours * HOUR_MS;
  const judged = friends.filter((friend) => (friend.createdAt ?? now).getTime() <= judgedBefore);
  const dormant = judged.filter((friend) => {
    const joined = (friend.createdAt ?? now).getTime();
    const cameBack = (friend.lastSeenAt?.getTime() ?? joined) - joined >= T.dormantAfterHours * HOUR_MS;
    return !friend.missionsCount && !friend.walletAddresses?.length && !cameBack;
  }).length;
  const dormantShare = judged.length >= T.dormantShareOf ? dormant / judged.length : 0;
  readings.push({
    signal: 'dormantFriends',
    strength: Math.max(ramp(dormant, T.dormantFrom, T.dormantFull), dormantShare > 0.5 ? (dormantShare - 0.5) * 2 : 0),
    evidence: { dormant, judged: judged.length, percent: Math.round(dormantShare * 100) },
    cluster: byReferrer,
  });
  const byNetwork = new Map<string, number>();
  for (const friend of friends) if (friend.joinNetwork) byNetwork.set(friend.joinNetwork, (byNetwork.get(friend.joinNetwork) ?? 0) + 1);
  if (player.joinNetwork && byNetwork.has(player.joinNetwork)) byNetwork.set(player.joinNetwork, byNetwork.get(player.joinNetwork)! + 1);
  const [network, sameNetwork] = [...byNetwork.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  readings.push({
    signal: 'friendsShareNetwork',
    strength: ramp(sameNetwork, T.sameNetworkFrom, T.sameNetworkFull),
    evidence: { players: sameNetwork },
    cluster: network ? { referrer: id, joinNetwork: network } : null,
  });
  const holders = new Map<string, Set<string>>();
  for (const holder of [{ _id: player._id, walletAddresses: player.walletAddresses ?? [] }, ...friends])
    for (const address of holder.walletAddresses ?? []) holders.set(address, (holders.get(address) ?? new Set()).add(String(holder._id)));
  const sharedAddresses = [...holders.entries()].filter(([, owners]) => owners.size > 1);
  const friendsSharing = new Set(sharedAddresses.flatMap(([, owners]) => [...owners]).filter((owner) => owner !== id)).size;
  readings.push({
    signal: 'friendsShareWallet',
    strength: ramp(friendsSharing, T.sharedWalletFriendsFrom, T.sharedWalletFriendsFull),
    evidence: { players: friendsSharing, address: sharedAddresses[0]?.[0] ?? '' },
    cluster: sharedAddresses.length ? { walletAddresses: sharedAddresses[0]![0] } : null,
  });

  // the tree's next levels from the counters each player keeps (friends counted toward their limit): the second level is their
  // sum, the third the sum over the second level's players, read only for the friends who have friends themselves
  const sum = (rows: Array<{ referrersCount?: number | null }>) => rows.reduce((total, row) => total + (row.referrersCount ?? 0), 0);
  const secondLevel = sum(friends);
  // (the third level is read for at most MAX_INVITERS_READ of them: a tree that wide is deep enough to count in full)
  const inviters = friends.filter((friend) => (friend.referrersCount ?? 0) > 0).slice(0, MAX_INVITERS_READ);
  const thirdLevel = inviters.length
    ? sum(
        await friendsOfPlayers(
          inviters.map((friend) => friend._id),
          MAX_FRIENDS_READ,
        ),
      )
    : 0;
  readings.push({
    signal: 'deepTree',
    strength: ramp(secondLevel + thirdLevel, T.deepTreeFrom, T.deepTreeFull),
    evidence: { firstLevel: friends.length, secondLevel, thirdLevel },
    cluster: byReferrer,
  });

  const shared = player.walletAddresses?.find((address) => sharers.some((other) => other.walletAddresses.includes(address)));
  readings.push({
    signal: 'sharedWallet',
    strength: sharers.length ? 1 : 0,
    evidence: { players: sharers.length, address: shared ?? '' },
    cluster: shared ? { walletAddresses: shared } : null,
  });

  const window = T.networkWindowMinutes * MINUTE_MS;
  const fromNetwork = player.joinNetwork
    ? await countJoinedFromNetwork(player.joinNetwork, new Date(joinedAt.getTime() - window), new Date(joinedAt.getTime() + window))
    : 0;
  readings.push({
    signal: 'networkBurst',
    strength: ramp(fromNetwork, T.networkFrom, T.networkFull),
    evidence: { players: fromNetwork, minutes: T.networkWindowMinutes },
    cluster: player.joinNetwork ? { joinNetwork: player.joinNetwork } : null,
  });

  const fast = claims.filter(
    (claim) => claim.claimedAt && claim.startedAt && claim.claimedAt.getTime() - claim.startedAt.getTime() < T.fastClaimSeconds * 1000,
  ).length;
  readings.push({
    signal: 'fastClaims',
    strength: ramp(fast, T.fastClaimsFrom, T.fastClaimsFull),
    evidence: { fast, claims: claims.length },
  });

  const hasty = withdrawals.find((withdrawal) => {
    const linkedAt = linkTimes.get(rawAddress(withdrawal.address) ?? withdrawal.address);
    const gap = linkedAt ? withdrawal.createdAt.getTime() - linkedAt.getTime() : Infinity;
    return gap >= 0 && gap < T.freshWalletMinutes * MINUTE_MS;
  });
  readings.push({
    signal: 'freshWalletWithdrawal',
    strength: hasty ? 1 : 0,
    evidence: { minutes: T.freshWalletMinutes, address: hasty?.address ?? '' },
  });
  return readings;
}

export interface RiskSettings {
  weights: Partial<Record<RiskSignal, number>>;
  reviewAt: number;
  highAt: number;
}

/** The score (each signal's weight times its strength, summed), its level, and the signals that added points. */
function scoreSignals(readings: SignalReading[], settings: RiskSettings) {
  const signals = readings
    .map((reading) => ({
      ...reading,
      points: Math.round((settings.weights[reading.signal] ?? DEFAULT_RISK_WEIGHTS[reading.signal]) * reading.strength),
    }))
    .filter((reading) => reading.points > 0)
    .sort((a, b) => b.points - a.points);
  const score = signals.reduce((sum, signal) => sum + signal.points, 0);
  const level: RiskLevel = score >= settings.highAt ? 'high' : score >= settings.reviewAt ? 'review' : 'low';
  return { score, level, signals };
}

async function riskSettings(): Promise<RiskSettings> {
  const config = await getAppConfig();
  const risk = config.toObject().risk as Partial<RiskSettings> | undefined;
  return { weights: risk?.weights ?? {}, reviewAt: risk?.reviewAt ?? 30, highAt: risk?.highAt ?? 60 };
}

/** A player's wallets, current and past, as the Risk tab shows them: the form wallets show (UQ…) beside the raw one. */
export async function walletsOf(playerId: Id) {
  const player = await riskSubject(playerId);
  if (!player) throw new AppError('NOT_FOUND');
  return { wallets: await friendlyWalletAddresses(player.walletAddresses ?? []) };
}

/** Assesses one player now and keeps the score on their record. */
export async function assessPlayer(playerId: Id, now = new Date()) {
  const readings = await readSignals(playerId, now);
  if (!readings) return null;
  const risk = { ...scoreSignals(readings, await riskSettings()), assessedAt: now };
  await saveRisk(playerId, risk, now);
  return risk;
}

/**
 * The risk sweep: assesses players whose records changed (a friend joined, a wallet moved, a claim, a withdrawal), oldest mark
 * first, for at most `budgetMs` so the sweep's recoveries never wait long behind it (the rest stay due for the next pass);
 * returns how many it assessed.
 */
export async function assessDuePlayers(now = new Date(), limit = 200, budgetMs = 1_000): Promise<number> {
  const started = Date.now();
  const due = await playersDueForRisk(now, limit);
  let assessed = 0;
  for (const player of due) {
    await assessPlayer(player._id, now);
    assessed++;
    if (Date.now() - started >= budgetMs) break;
  }
  return assessed;
}

/**
 * The risk gate of referral rewards (issue 32, finding 12): true while any of these players (the referrer, the friend) is at
 * review or high risk and not cleared by an operator. Each is assessed afresh at `now` (what they did up to this moment
 * counts, not the last sweep's score); `known` keeps the answers of one pass, so a farm's thousand friends assess their
 * referrer once.
 */
export async function riskHolds(playerIds: Id[], now: Date, known = new Map<string, boolean>()): Promise<boolean> {
  for (const playerId of playerIds) {
    const key = String(playerId);
    if (!known.has(key)) {
      const risk = await assessPlayer(playerId, now);
      const [standing] = risk ? await riskStandings([playerId]) : [];
      known.set(key, holdsAt(risk, standing?.riskCleared));
    }
    if (known.get(key)) return true;
  }
  return false;
}

type ClearanceListener = (playerId: Id, now: Date) => Promise<number>;
const clearanceListeners: ClearanceListener[] = [];

/** What waits on a player's risk (the referrals module's rewards) is told when an operator clears them: registered, no cycle. */
export function onRiskCleared(listener: ClearanceListener): void {
  clearanceListeners.push(listener);
}

/**
 * An operator looked at the player's risk and lets their rewards go: assessed now, the score is recorded as cleared (by whom,
 * when), audited, and what waited on it is paid (a reward whose other party still holds it goes on waiting). The clearance
 * holds while the score stays at or below the one cleared: new evidence above it holds rewards again.
 */
export async function clearPlayerRisk(playerId: Id, operator: Operator, now = new Date()) {
  const risk = await assessPlayer(playerId, now);
  if (!risk) throw new AppError('NOT_FOUND');
  const [before] = await riskStandings([playerId]);
  await recordRiskClearance(playerId, risk.score, operator.id, now);
  await recordAudit({
    operator,
    action: 'update',
    resource: 'users',
    record: String(playerId),
    before: { riskCleared: before?.riskCleared ?? null },
    after: { riskCleared: { score: risk.score, by: operator.id, at: now } },
    note: `risk cleared at score ${risk.score} (${risk.level}): waiting rewards released`,
  });
  let released = 0;
  for (const listener of clearanceListeners) released += await listener(playerId, now);
  return { score: risk.score, level: risk.level, cleared: { score: risk.score, by: operator.id, at: now }, released };
}
