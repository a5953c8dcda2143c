import type { Types } from 'mongoose';
import { objectId, type Id } from '../../db/ids';
import { prefixPattern } from '../../db/prefixSearch';
import { dayBefore } from '../../lib/calendarDay';
import type { NewRecord } from '../../db/schemaKit';
import { isPageTarget, type Language, type PlayerStatus, type ReminderKind, type RiskLevel } from '@gift/shared';
import { setPlayerStatus } from './playerStatus.service';
import { UserModel } from './user.model';

export type { UserDocument } from './user.model';

/**
 * The player records other modules read and count on (referrals, missions, notifications, the console):
 * single-document reads and conditional updates, with no rules of their own.
 */

/** What a `startapp` / `start` parameter may look like (Telegram allows A-Z a-z 0-9 _ -, up to 64). */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{4,64}$/;

/**
 * The player whose referral code a new player arrived with, if it may refer them:
 * an existing player, not banned, other than the newcomer themselves. A page target (`go-…`, a bot message's button)
 * shares the start parameter but is never a referral code.
 */
export async function findReferrer(code: string | undefined, newcomerTelegramId: number): Promise<Types.ObjectId | null> {
  if (!code || !REFERRAL_CODE_PATTERN.test(code) || isPageTarget(code)) return null;
  return referrerWithCode(code, newcomerTelegramId);
}

export interface ReferralOutcome {
  /** The invite counted toward the referrer's invite limit. */
  counted: boolean;
  /** The referrer was credited the referrer coin amount. */
  credited: boolean;
}

async function referrerWithCode(code: string, newcomerTelegramId: number): Promise<Types.ObjectId | null> {
  const referrer = await UserModel.findOne(
    { referralCode: code, telegramId: { $ne: newcomerTelegramId }, status: { $ne: 'banned' } },
    { _id: 1 },
  ).lean();
  return referrer?._id ?? null;
}

/**
 * Counts this friend's invite once while the count is below the referrer's invite limit: one conditional
 * update that also records the friend among those counted, so simultaneous arrivals cannot pass the limit
 * and a repeat (a retry, the recovery sweep) never counts the same friend twice. True when the friend is
 * counted (now or before), false at the limit.
 */
export async function countInvite(referrerId: Id, friendId: Types.ObjectId): Promise<boolean> {
  const counted = await UserModel.updateOne(
    { _id: referrerId, countedFriends: { $ne: friendId }, $expr: { $lt: ['$referrersCount', '$inviteLimit'] } },
    { $inc: { referrersCount: 1 }, $push: { countedFriends: friendId } },
  );
  return counted.modifiedCount === 1 || !!(await UserModel.exists({ _id: referrerId, countedFriends: friendId }));
}

/** A newcomer's referral as its reward's admit check reads it: who referred them, and where it stands. */
export function referralOf(friendId: Id) {
  return UserModel.findById(friendId, { referrer: 1, referralState: 1, isPremium: 1, createdAt: 1 }).lean();
}

/**
 * The referral of this friend moves on: counted and waiting to qualify ('joined'), rewarded, or beyond the referrer's limit;
 * one conditional step from the state the caller read, so a repeat moves it once. 'new' is a registration not settled yet
 * (no state, or 'pending' as an older version recorded it). Meeting the rule is dated `at`.
 */
export async function settleReferral(
  friendId: Id,
  outcome: 'joined' | 'waiting' | 'rewarded' | 'over-limit',
  from: 'new' | 'joined' | 'waiting' = 'new',
  at: Date = new Date(),
): Promise<boolean> {
  // meeting the rule (rewarded, or waiting on risk) is dated once, at `at`, for the referral figures
  const qualified = from !== 'waiting' && (outcome === 'waiting' || outcome === 'rewarded') ? { referralQualifiedAt: at } : {};
  const { modifiedCount } = await UserModel.updateOne(
    { _id: friendId, referralState: from === 'new' ? { $in: [null, 'pending'] } : from },
    { $set: { referralState: outcome, ...qualified } },
  );
  return modifiedCount > 0;
}

/** Where this friend's referral stands ('joined', 'waiting', 'rewarded', 'over-limit'), or undefined. */
export async function referralStateOf(friendId: Id): Promise<string | undefined> {
  return (await UserModel.findById(friendId, { referralState: 1 }).lean())?.referralState ?? undefined;
}

/** Newcomers an older version registered with a code and left 'pending' (their invite not yet counted, nor rewarded). */
export function referralsOfOlderVersion() {
  return UserModel.find({ referralState: 'pending' }, { referrer: 1, isPremium: 1, createdAt: 1 }).lean();
}

/** Friends counted and waiting to qualify, in id order after `afterId`: what they did and when they joined and were last seen. */
export function referralsToQualify(limit: number, afterId: Id | null = null) {
  return UserModel.find(
    { referralState: 'joined', ...(afterId ? { _id: { $gt: objectId(afterId) } } : {}) },
    { referrer: 1, isPremium: 1, doneMissionsCount: 1, createdAt: 1, lastSeenAt: 1 },
  )
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
}

/**
 * Friends whose reward waits on risk ('waiting'), in id order after `afterId`: all of them, or those where this player is the
 * referrer or the friend.
 */
export function referralsWaiting(limit: number, afterId: Id | null = null, playerId: Id | null = null) {
  return UserModel.find(
    {
      referralState: 'waiting',
      ...(afterId ? { _id: { $gt: objectId(afterId) } } : {}),
      ...(playerId ? { $or: [{ referrer: objectId(playerId) }, { _id: objectId(playerId) }] } : {}),
    },
    { referrer: 1, isPremium: 1 },
  )
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
}

/** What the risk gate reads of these players: their score and level as last assessed, and an operator's clearance. */
export function riskStandings(playerIds: Id[]) {
  return UserModel.find({ _id: { $in: playerIds.map(objectId) } }, { risk: 1, riskCleared: 1 }).lean();
}

/** An operator lets the player's rewards go at this score (held again if it rises above it). */
export async function recordRiskClearance(playerId: Id, score: number, by: Id, at: Date): Promise<boolean> {
  const cleared = await UserModel.updateOne(
    { _id: objectId(playerId) },
    { $set: { riskCleared: { score, by: objectId(by), at } } },
    { timestamps: false },
  );
  return cleared.matchedCount > 0;
}

/** How many of a player's friends qualified (earned them the reward). */
export function countQualifiedFriends(playerId: Id): Promise<number> {
  return UserModel.countDocuments({ referrer: objectId(playerId), referralState: 'rewarded' });
}

export function playerNames(id: Id) {
  return UserModel.findById(id, { name: 1, username: 1 }).lean();
}

export function countFriendsOf(playerId: Id): Promise<number> {
  return UserModel.countDocuments({ referrer: playerId });
}

/** The friends a player invited, newest first: names and join dates only. */
export function friendsPageOf(playerId: Id, skip: number, limit: number) {
  return UserModel.find({ referrer: playerId }, { name: 1, username: 1, createdAt: 1 })
    .sort({ createdAt: -1, _id: -1 })
    .skip(skip)
    .limit(limit)
    .lean();
}

export async function allowsMessages(playerId: Id): Promise<boolean> {
  return !!(await UserModel.exists({ _id: playerId, messagePermission: true }));
}

/** What the bot needs to write to a player: where, whether it may, in which language, and what its reminders check. */
export function messageRecipient(playerId: Id) {
  return UserModel.findById(playerId, {
    telegramId: 1,
    messagePermission: 1,
    language: 1,
    status: 1,
    'reminders.off': 1,
    streak: 1,
    streakFreezes: 1,
  }).lean();
}

/** Whether the bot may remind this player of this kind: it may message them, they are active, and they left the kind on. */
export async function allowsReminder(playerId: Id, kind: ReminderKind): Promise<boolean> {
  return !!(await UserModel.exists({ _id: playerId, messagePermission: true, status: 'active', 'reminders.off': { $ne: kind } }));
}

/** The kinds of reminders a player switched off. */
export async function remindersOff(playerId: Id): Promise<string[]> {
  return (await UserModel.findById(playerId, { 'reminders.off': 1 }).lean())?.reminders?.off ?? [];
}

/** A player switches a kind of reminder on or off (one update, so taps in any order end as the last one asked). */
export async function switchReminder(playerId: Id, kind: ReminderKind, on: boolean): Promise<void> {
  await UserModel.updateOne(
    { _id: objectId(playerId) },
    on ? { $pull: { 'reminders.off': kind } } : { $addToSet: { 'reminders.off': kind } },
  );
}

/**
 * Takes one of the player's `cap` places for reminders on `day` for the message `key`, or finds it already taken by that key
 * (a retry, a sender that took the message over after a crash). Each step is one conditional update on the player, so any
 * number of senders at once never give out more than `cap` places a day. False: the day's places are gone.
 */
export async function takeReminderPlace(playerId: Id, key: string, day: string, cap: number): Promise<boolean> {
  const _id = objectId(playerId);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await UserModel.exists({ _id, 'reminders.day': day, 'reminders.keys': key })) return true;
    if (cap < 1) return false;
    const taken = await UserModel.updateOne(
      { _id, 'reminders.day': day, 'reminders.count': { $lt: cap }, 'reminders.keys': { $ne: key } },
      { $inc: { 'reminders.count': 1 }, $push: { 'reminders.keys': key } },
      { timestamps: false },
    );
    if (taken.modifiedCount) return true;
    // the first reminder of a new day starts the day's count
    const started = await UserModel.updateOne(
      { _id, 'reminders.day': { $ne: day } },
      { $set: { 'reminders.day': day, 'reminders.count': 1, 'reminders.keys': [key] } },
      { timestamps: false },
    );
    if (started.modifiedCount) return true;
    if (await UserModel.exists({ _id, 'reminders.day': day, 'reminders.count': { $gte: cap } })) return false;
  }
  return false;
}

/** Conditions on a player's own record a broadcast's segment may set (language, last seen, join date, blocked). */
export interface PlayerConditions {
  language?: Language;
  lastSeenAt?: { $gte?: Date; $lt?: Date };
  createdAt?: { $gte?: Date; $lte?: Date };
  status?: PlayerStatus | { $ne: PlayerStatus };
}

/**
 * The next page, in id order after `afterId`, of players the bot may message who meet `conditions`: what a
 * broadcast counts and records as its audience.
 */
export function messageablePlayersPage(conditions: PlayerConditions, afterId: Id | null, limit: number) {
  return UserModel.find(
    { ...conditions, messagePermission: true, ...(afterId ? { _id: { $gt: objectId(afterId) } } : {}) },
    { telegramId: 1, language: 1 },
  )
    .sort({ _id: 1 })
    .limit(limit)
    .lean();
}

/** Of these players, the ones frozen or banned now (ids as strings): a broadcast about to reach them does not. */
export async function playersNotActiveAmong(ids: Id[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await UserModel.find({ _id: { $in: ids.map(objectId) }, status: { $ne: 'active' } }, { _id: 1 }).lean();
  return new Set(rows.map((row) => String(row._id)));
}

/** The player blocked the bot (or left Telegram): no more messages until they start it again. */
export async function stopMessaging(playerId: Id): Promise<void> {
  await UserModel.updateOne({ _id: playerId }, { $set: { messagePermission: false } });
}

/** The progress records a player's mission counters remember having counted: far more than can be in flight at once. */
const COUNTED_PROGRESS_KEPT = 200;

type MissionCounter = 'missionsCount' | 'doneMissionsCount';

/**
 * Counts one progress record of a player in missionsCount (started) and/or doneMissionsCount (done), each once whatever
 * repeats: the player remembers the last records counted (`countedProgress`, `<counter>:<progress id>`), and a count is one
 * conditional write on that memory. A count is a step of the money engine's operation that owes it (a Go's `mission-start`, a
 * credit's `mission-credit`), so a repeat after a crash in between counts what is still owed, and no more.
 *
 * `markRiskDueAt` (a first claim of a player not yet due) marks the risk score due in the same write. One write in the usual case; a
 * repeat in which some counter was counted already counts each apart.
 */
export async function countMissionProgress(playerId: Id, progressId: Id, counters: MissionCounter[], markRiskDueAt?: Date): Promise<void> {
  const _id = objectId(playerId);
  const keyOf = (counter: MissionCounter) => `${counter}:${String(progressId)}`;
  const count = (which: MissionCounter[], filter: Record<string, unknown>, set: Record<string, unknown> = {}) =>
    UserModel.updateOne(
      { _id, countedProgress: { $nin: which.map(keyOf) }, ...filter },
      {
        $inc: Object.fromEntries(which.map((counter) => [counter, 1])),
        $push: { countedProgress: { $each: which.map(keyOf), $slice: -COUNTED_PROGRESS_KEPT } },
        ...(Object.keys(set).length ? { $set: set } : {}),
      },
      { timestamps: false },
    );
  if (markRiskDueAt && (await count(counters, { riskDueAt: null }, { riskDueAt: markRiskDueAt })).modifiedCount) return;
  if ((await count(counters, {})).modifiedCount) return;
  for (const counter of counters) await count([counter], {});
  if (markRiskDueAt) await markRiskDue([_id], markRiskDueAt);
}

/** A player's streak of daily missions: consecutive days, the first of them and the last (YYYY-MM-DD). */
export interface Streak {
  days: number;
  startDay: string;
  lastDay: string;
}

/**
 * Counts a day with a daily mission done: the day after the streak's last one adds a day, a later one starts a new streak,
 * the same day or an earlier one changes nothing. Each is one conditional update, so repeats and races count a day once.
 * Returns the streak as it stands.
 */
export async function advanceStreak(playerId: Id, day: string, yesterday: string): Promise<Streak> {
  const _id = objectId(playerId);
  const continued = await UserModel.updateOne(
    { _id, 'streak.lastDay': yesterday },
    { $inc: { 'streak.days': 1 }, $set: { 'streak.lastDay': day } },
  );
  // one day missed and a streak freeze in hand: the freeze covers that day, once (the same conditional update spends it)
  const frozen =
    !continued.modifiedCount &&
    (
      await UserModel.updateOne(
        { _id, 'streak.lastDay': dayBefore(yesterday), streakFreezes: { $gte: 1 } },
        { $inc: { 'streak.days': 1, streakFreezes: -1 }, $set: { 'streak.lastDay': day } },
      )
    ).modifiedCount > 0;
  if (!continued.modifiedCount && !frozen)
    await UserModel.updateOne(
      { _id, $or: [{ 'streak.lastDay': { $lt: yesterday } }, { 'streak.lastDay': null }] },
      { $set: { streak: { days: 1, startDay: day, lastDay: day } } },
    );
  const player = await UserModel.findById(_id, { streak: 1 }).lean();
  return { days: player?.streak?.days ?? 0, startDay: player?.streak?.startDay ?? '', lastDay: player?.streak?.lastDay ?? '' };
}

/** Gives the player one streak freeze for a shop purchase, once per key however often it is asked. */
export async function grantStreakFreeze(playerId: Id, key: string): Promise<void> {
  await UserModel.updateOne(
    { _id: objectId(playerId), freezeKeys: { $ne: key }, freezeRefunds: { $nin: [`${key}:revoked`, `${key}:used`] } },
    { $inc: { streakFreezes: 1 }, $push: { freezeKeys: key } },
  );
}

/**
 * A refund takes back the freeze given under the key: 'revoked' when the player still had a freeze (one fewer now), 'used'
 * when they had spent them all, 'none' when none was given. Each outcome is one conditional update, and a repeat answers the same.
 */
export async function takeBackStreakFreeze(playerId: Id, key: string): Promise<'revoked' | 'used' | 'none'> {
  const _id = objectId(playerId);
  const revoked = await UserModel.updateOne(
    { _id, freezeKeys: key, streakFreezes: { $gte: 1 } },
    { $inc: { streakFreezes: -1 }, $pull: { freezeKeys: key }, $push: { freezeRefunds: `${key}:revoked` } },
  );
  if (!revoked.modifiedCount)
    await UserModel.updateOne({ _id, freezeKeys: key }, { $pull: { freezeKeys: key }, $push: { freezeRefunds: `${key}:used` } });
  const settled = (await UserModel.findById(_id, { freezeRefunds: 1 }).lean())?.freezeRefunds ?? [];
  if (settled.includes(`${key}:revoked`)) return 'revoked';
  return settled.includes(`${key}:used`) ? 'used' : 'none';
}

/**
 * The ids of players whose name or username (or a word of it) starts with the text, in any case: the console finds a player's records by
 * name.
 */
export function playerIdsMatching(text: string, limit: number) {
  return UserModel.find(
    { $or: [{ nameWords: prefixPattern(text, 'nameWords') }, { usernameLower: prefixPattern(text, 'usernameLower') }] },
    { _id: 1 },
  )
    .limit(limit)
    .lean();
}

/** How many players there are (from the collection's metadata: no scan). */
export function countPlayers(): Promise<number> {
  return UserModel.estimatedDocumentCount();
}

/** Players who joined in [from, to), through the index on the join date. */
export function countJoinedBetween(from: Date, to: Date): Promise<number> {
  return UserModel.countDocuments({ createdAt: { $gte: from, $lt: to } });
}

/** Players seen since `since`, through the index on lastSeenAt. */
export function countSeenSince(since: Date): Promise<number> {
  return UserModel.countDocuments({ lastSeenAt: { $gte: since } });
}

/** When the first player joined: where the dashboard's history begins. */
export async function firstJoinDate(): Promise<Date | null> {
  const first = await UserModel.findOne({}, { createdAt: 1 }).sort({ createdAt: 1, _id: 1 }).lean<{ createdAt?: Date }>();
  return first?.createdAt ?? null;
}

/**
 * Gives players saved before the search fields existed their nameWords, usernameLower and lookupWords (a save through the
 * model computes them), and players blocked before statuses existed the status banned; a batch per sweep pass; returns
 * how many it updated.
 */
export async function backfillSearchFields(batch = 500): Promise<number> {
  const players = await UserModel.find({
    $or: [{ nameWords: { $exists: false } }, { lookupWords: { $exists: false } }, { blocked: { $exists: true } }],
  })
    .select('+blocked')
    .limit(batch);
  for (const player of players) {
    // banned as an operator bans (the ledger's hold too), before the old mark goes: a crash between finds it banned
    if (player.get('blocked') === true && player.status === 'active') await setPlayerStatus(player._id, { status: 'banned' }, new Date());
    player.set('blocked', undefined);
    await player.save();
  }
  return players.length;
}

/** Inserts players as given (the demo seed and the benchmarks); players otherwise arrive through Telegram. */
export const insertPlayers = (records: NewRecord<typeof UserModel>[]) => UserModel.insertMany(records, { ordered: false });

/** The highest Telegram id of any player, or 0. */
export async function highestTelegramId(): Promise<number> {
  return (await UserModel.findOne({}, { telegramId: 1 }).sort({ telegramId: -1 }).lean())?.telegramId ?? 0;
}

/** Something a player's risk score reads changed: the risk sweep assesses them again soon (an earlier mark stays). */
export async function markRiskDue(playerIds: Id[], now: Date): Promise<void> {
  const ids = playerIds.filter(Boolean).map(objectId);
  if (ids.length) await UserModel.updateMany({ _id: { $in: ids }, riskDueAt: null }, { $set: { riskDueAt: now } }, { timestamps: false });
}

/**
 * A wallet the player proved is theirs joins their wallets, current and past, which the console searches and the risk score
 * compares: every other player who ever had it is assessed again, and so is this one.
 */
export async function recordPlayerWallet(playerId: Id, rawAddress: string, now: Date): Promise<void> {
  await UserModel.updateOne(
    { _id: objectId(playerId) },
    { $addToSet: { walletAddresses: rawAddress, lookupWords: rawAddress.toLowerCase() } },
    { timestamps: false },
  );
  const others = await UserModel.find({ walletAddresses: rawAddress }, { _id: 1 }).limit(1000).lean();
  await markRiskDue([playerId, ...others.map((other) => other._id)], now);
}

/** The players whose risk score is due (something it reads changed), oldest mark first. */
export function playersDueForRisk(now: Date, limit: number) {
  return UserModel.find({ riskDueAt: { $lte: now } }, { _id: 1 })
    .sort({ riskDueAt: 1 })
    .limit(limit)
    .lean();
}

/** What the risk score reads of the player themselves. */
export function riskSubject(playerId: Id) {
  return UserModel.findById(playerId, { telegramId: 1, isPremium: 1, createdAt: 1, joinNetwork: 1, walletAddresses: 1 }).lean();
}

/**
 * The friends of these players (up to `limit`): when they joined and were last seen, whether they ever did a mission, how many
 * friends they counted, the network they first launched from and their wallets.
 */
export function friendsOfPlayers(playerIds: Id[], limit: number) {
  return UserModel.find(
    { referrer: { $in: playerIds.map(objectId) } },
    { referrer: 1, createdAt: 1, lastSeenAt: 1, missionsCount: 1, referrersCount: 1, joinNetwork: 1, walletAddresses: 1 },
  )
    .limit(limit)
    .lean();
}

/** How many players first launched from this network between the two times. */
export function countJoinedFromNetwork(network: string, from: Date, to: Date): Promise<number> {
  return UserModel.countDocuments({ joinNetwork: network, createdAt: { $gte: from, $lte: to } });
}

/** Other players who have (or had) one of these wallets. */
export function playersWithWallets(addresses: string[], except: Id, limit: number) {
  return UserModel.find({ walletAddresses: { $in: addresses }, _id: { $ne: objectId(except) } }, { _id: 1, walletAddresses: 1 })
    .limit(limit)
    .lean();
}

/** Keeps a player's newly assessed score; the due mark is cleared unless something changed again since `assessedFrom`. */
export async function saveRisk(
  playerId: Id,
  risk: { score: number; level: RiskLevel; signals: unknown[]; assessedAt: Date },
  assessedFrom: Date,
): Promise<void> {
  await UserModel.updateOne({ _id: objectId(playerId) }, { $set: { risk } }, { timestamps: false });
  await UserModel.updateOne(
    { _id: objectId(playerId), riskDueAt: { $lte: assessedFrom } },
    { $set: { riskDueAt: null } },
    { timestamps: false },
  );
}
