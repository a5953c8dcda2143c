import { Address } from '@ton/core';
import { DEFAULT_RISK_WEIGHTS, type RiskLevel, type RiskSignal } from '@gift/shared';
import type { Id } from '../../db/ids';
import { getAppConfig } from '../config/config.service';
import { claimTimesOf } from '../missions/missions.service';
import {
  countJoinedFromNetwork,
  friendsOfPlayers,
  playersDueForRisk,
  playersWithWallets,
  riskSubject,
  saveRisk,
} from '../users/players.service';
import { linkTimesOf } from '../wallet/wallet.service';
import { withdrawalTimesOf } from '../withdrawals/withdrawals.service';
import { estimatedTelegramSignUp } from './riskRules';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

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
