import type { Types } from 'mongoose';
import { fromMicros, type UserMissionStatus, type VerifyType } from '@gift/shared';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { BotApiError, chatIdFromLink, isChatMember } from '../../lib/telegramBot';
import { escapeRegex } from '../../db/prefixSearch';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId, type Id } from '../../db/ids';
import { findGiftCoin, GIFT_COINS_COLLECTION } from '../coins/giftCoins.service';
import { resolveBotToken } from '../config/config.service';
import { findEnabledCategory } from '../content/categories.service';
import { postEntry } from '../ledger/ledger.service';
import { notify } from '../notifications/notifications.service';
import { raiseMissionCount } from '../users/players.service';
import { claimableAt, codeMatches, decideClaim, type PlayerMissionStatus } from './missionRules';
import { faultPoint } from '../../lib/faults';
import { MissionModel, UserMissionModel } from './mission.models';
import { plural, registerCoinUse } from '../coins/giftCoinDeletion.service';
import { registerCategoryUse } from '../content/categoryDeletion.service';

/** A mission as the player's screens show it: explicit fields only, never the secret code. */
export interface PlayerMission {
  id: string;
  categoryId: string;
  title: string;
  description: string;
  link: string;
  image: string;
  reward: string;
  coin: { id: string; symbol: string };
  verifyType: VerifyType;
  verifyDuration: number;
  claimButton: string;
  goButton: string;
  mustDone: boolean;
  status: PlayerMissionStatus;
  /** When Claim starts working (Time, Instagram after Go); null otherwise. */
  claimableAt: Date | null;
  /** Why an operator rejected it, while it is rejected. */
  rejectReason: string;
}

interface MissionRow {
  _id: Types.ObjectId;
  category: Types.ObjectId;
  title: string;
  description: string;
  link: string;
  image: string;
  reward: number;
  coin: Types.ObjectId;
  verifyType: VerifyType;
  verifyDuration: number;
  claimButton: string;
  goButton: string;
  mustDone: boolean;
  coinDocs: Array<{ _id: Types.ObjectId; symbol: string }>;
}

interface PlayerProgress {
  _id: Types.ObjectId;
  mission: Types.ObjectId;
  status: UserMissionStatus;
  startedAt: Date | null;
  rejectReason: string;
}

function presentMission(mission: MissionRow, progress: PlayerProgress | undefined): PlayerMission {
  const status: PlayerMissionStatus = progress?.status ?? 'not_started';
  return {
    id: String(mission._id),
    categoryId: String(mission.category),
    title: mission.title,
    description: mission.description ?? '',
    link: mission.link ?? '',
    image: mission.image ?? '',
    reward: fromMicros(mission.reward ?? 0),
    coin: { id: String(mission.coin), symbol: mission.coinDocs[0]?.symbol ?? '' },
    verifyType: mission.verifyType,
    verifyDuration: mission.verifyDuration ?? 0,
    claimButton: mission.claimButton || 'Claim',
    goButton: mission.goButton || 'Go',
    mustDone: !!mission.mustDone,
    status,
    claimableAt: status === 'started' ? claimableAt(mission.verifyType, mission.verifyDuration, progress?.startedAt) : null,
    rejectReason: status === 'rejected' ? (progress?.rejectReason ?? '') : '',
  };
}

/** One query: the enabled missions matching `match`, in their order, each with its coin; the secret code left out. */
function enabledMissions(match: Record<string, unknown>): Promise<MissionRow[]> {
  return MissionModel.aggregate<MissionRow>([
    { $match: { ...match, enabled: true } },
    { $sort: { order: 1, _id: 1 } },
    { $project: { secretCode: 0 } },
    { $lookup: { from: GIFT_COINS_COLLECTION, localField: 'coin', foreignField: '_id', as: 'coinDocs' } },
  ]);
}

/** One query: this player's progress on every mission they touched (bounded by the number of missions). */
function progressOf(userId: Id): Promise<PlayerProgress[]> {
  return UserMissionModel.find({ user: objectId(userId) }, { mission: 1, status: 1, startedAt: 1, rejectReason: 1 }).lean<PlayerProgress[]>();
}

/** The enabled missions (optionally of one category) with this player's status: two queries, run together. */
export async function playerMissions(userId: Id, match: Record<string, unknown> = {}): Promise<PlayerMission[]> {
  const [missions, progress] = await Promise.all([enabledMissions(match), progressOf(userId)]);
  const byMission = new Map(progress.map((p) => [String(p.mission), p]));
  return missions.map((m) => presentMission(m, byMission.get(String(m._id))));
}

/** A category and its enabled missions for this player; a disabled category is not found. */
export async function missionsOfCategory(userId: Id, categoryId: string) {
  const [category, missions] = await Promise.all([findEnabledCategory(categoryId), playerMissions(userId, { category: objectId(categoryId) })]);
  if (!category) throw new AppError('NOT_FOUND');
  return {
    category: { id: String(category._id), title: category.title, description: category.description ?? '', image: category.image ?? '' },
    missions,
  };
}

type StartableMission = { _id: Types.ObjectId; category: Types.ObjectId | null | undefined; coin: Types.ObjectId | null | undefined; reward: number };

/**
 * Records that the player tapped Go: creates their progress once (counting it in missionsCount),
 * restarts a rejected one, and leaves a started, pending or done one as it is (Go again does not reset a wait).
 */
async function startProgress(userId: Id, mission: StartableMission, now: Date) {
  const user = objectId(userId);
  let created = false;
  let progress;
  try {
    const result = await UserMissionModel.findOneAndUpdate(
      { user, mission: mission._id },
      {
        $setOnInsert: {
          user,
          mission: mission._id,
          category: mission.category,
          coin: mission.coin,
          reward: mission.reward,
          status: 'started',
          startedAt: now,
        },
      },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true, setDefaultsOnInsert: true },
    );
    progress = result.value!;
    created = !result.lastErrorObject?.updatedExisting;
  } catch (error) {
    // real MongoDB: a simultaneous first Go won the unique (user, mission) index
    if (!isDuplicateKey(error)) throw error;
    progress = (await UserMissionModel.findOne({ user, mission: mission._id }))!;
  }
  if (created) {
    await raiseMissionCount(user, 'missionsCount', await UserMissionModel.countDocuments({ user }));
    return progress;
  }
  if (progress.status === 'rejected') {
    const restarted = await UserMissionModel.findOneAndUpdate(
      { _id: progress._id, status: 'rejected' },
      { $set: { status: 'started', startedAt: now, claimedAt: null, rejectReason: '' } },
      { returnDocument: 'after' },
    );
    return restarted ?? (await UserMissionModel.findById(progress._id))!;
  }
  return progress;
}

async function findEnabledMission(missionId: string, withSecret = false) {
  const query = MissionModel.findOne({ _id: objectId(missionId), enabled: true });
  const mission = await (withSecret ? query.select('+secretCode') : query).lean();
  if (!mission) throw new AppError('NOT_FOUND');
  return mission;
}

/** Go: records the start and gives the link to open. */
export async function startMission(userId: Id, missionId: string, now: Date): Promise<{ link: string }> {
  const mission = await findEnabledMission(missionId);
  await startProgress(userId, mission, now);
  return { link: mission.link ?? '' };
}

/** Asks Telegram whether the player is in the mission's channel or group; never credits when it cannot tell. */
async function requireMembership(env: Env, link: string, telegramId: number): Promise<void> {
  const chatId = chatIdFromLink(link);
  const token = await resolveBotToken(env);
  if (!chatId || !token) throw new AppError('NOT_CONFIGURED');
  let member: boolean;
  try {
    member = await isChatMember({ apiRoot: env.TELEGRAM_API_ROOT, token }, chatId, telegramId);
  } catch (error) {
    if (!(error instanceof BotApiError)) throw error;
    // Telegram answers these for someone who never joined the chat
    if (/user not found|member not found|PARTICIPANT_ID_INVALID/i.test(error.description)) throw new AppError('NOT_JOINED');
    if (error.status === 429) throw new AppError('RATE_LIMITED');
    // chat not found, bot not an admin there, token refused: the mission or the bot is set up wrong
    if (error.status >= 400 && error.status < 500) throw new AppError('NOT_CONFIGURED');
    // Telegram unreachable: a retryable failure, logged by the door
    throw new AppError('INTERNAL');
  }
  if (!member) throw new AppError('NOT_JOINED');
}

/** Finishes the credit of a done mission whose credit is still owed (`awaitingCredit`); nothing otherwise. */
async function finishInterruptedCredit(progressId: Types.ObjectId): Promise<void> {
  const owed = await UserMissionModel.findOne({ _id: progressId, status: 'done', awaitingCredit: true }, { user: 1, coin: 1, reward: 1, reviewedBy: 1 }).lean();
  if (owed) await creditApproval(owed);
}

async function refusalFor(progressId: Types.ObjectId): Promise<AppError> {
  await finishInterruptedCredit(progressId);
  const current = await UserMissionModel.findById(progressId, { status: 1 }).lean();
  if (current?.status === 'done') return new AppError('ALREADY_DONE');
  if (current?.status === 'pending') return new AppError('ALREADY_PENDING');
  return new AppError('MISSION_NOT_STARTED');
}

export interface ClaimResult {
  status: 'done' | 'pending';
  reward: string;
  coinId: string;
}

export interface ClaimMissionInput {
  user: { id: Id; telegramId: number };
  missionId: string;
  code?: string;
  now: Date;
  env: Env;
}

/**
 * Claim: decides by the rules, verifies by the mission's type, then completes.
 * Completing credits the ledger under `mission:<userMissionId>` before the conditional
 * started → done step: the key makes every repeat harmless, so simultaneous claims credit once and a
 * crash between the two writes loses nothing (the next claim finishes it). Only the claim that wins the
 * step counts it in doneMissionsCount.
 */
export async function claimMission(input: ClaimMissionInput): Promise<ClaimResult> {
  const { user, missionId, now } = input;
  const [mission, starMissions, progress] = await Promise.all([
    findEnabledMission(missionId, true),
    MissionModel.find({ mustDone: true, enabled: true }, { _id: 1 }).lean(),
    progressOf(user.id),
  ]);
  const mine = progress.find((p) => String(p.mission) === String(mission._id));
  // a claim that repeats one a crash or an outage interrupted finishes its credit before being told it is done
  if (mine?.status === 'done') await finishInterruptedCredit(mine._id);
  const done = new Set(progress.filter((p) => p.status === 'done').map((p) => String(p.mission)));
  const decision = decideClaim({
    verifyType: mission.verifyType,
    verifyDuration: mission.verifyDuration ?? 0,
    mustDone: !!mission.mustDone,
    status: mine?.status ?? 'not_started',
    startedAt: mine?.startedAt ?? null,
    unfinishedStarMissions: starMissions.filter((s) => !done.has(String(s._id))).length,
    now,
  });
  if ('refuse' in decision) throw new AppError(decision.refuse, decision.params);

  if (decision.step === 'checkMembership') await requireMembership(input.env, mission.link ?? '', user.telegramId);
  if (decision.step === 'checkCode' && !codeMatches(mission.secretCode, input.code)) throw new AppError('INCORRECT_CODE');

  const progressId = decision.startFirst ? (await startProgress(user.id, mission, now))._id : mine!._id;
  const result: ClaimResult = { status: 'done', reward: fromMicros(mission.reward), coinId: String(mission.coin) };

  if (decision.step === 'review') {
    const waiting = await UserMissionModel.findOneAndUpdate(
      { _id: progressId, status: 'started' },
      { $set: { status: 'pending', claimedAt: now, reward: mission.reward, coin: mission.coin } },
    );
    if (!waiting) throw await refusalFor(progressId);
    return { ...result, status: 'pending' };
  }

  const completed = await UserMissionModel.findOneAndUpdate(
    { _id: progressId, status: 'started' },
    { $set: { status: 'done', claimedAt: now, doneAt: now, reward: mission.reward, coin: mission.coin, awaitingCredit: true } },
    { returnDocument: 'after' },
  );
  if (!completed) throw await refusalFor(progressId);
  await faultPoint('mission:after-done');
  await creditApproval(completed);
  return result;
}

/**
 * An operator approves (reward credited now) or rejects (the player may try again) a pending mission.
 * The conditional pending → done/rejected step comes first so an approval and a rejection arriving
 * together cannot both happen; only the approval that wins it credits, under `mission:<userMissionId>`.
 */
export async function reviewUserMission(userMissionId: string, review: { status: 'done' | 'rejected'; rejectReason?: string }, reviewerId: string, now: Date) {
  const id = objectId(userMissionId);
  const reviewedBy = objectId(reviewerId);
  const update =
    review.status === 'done'
      ? { status: 'done', doneAt: now, reviewedBy, rejectReason: '', awaitingCredit: true }
      : { status: 'rejected', reviewedBy, rejectReason: review.rejectReason ?? '' };
  const reviewed = await UserMissionModel.findOneAndUpdate({ _id: id, status: 'pending' }, { $set: update }, { returnDocument: 'after' });
  if (!reviewed) {
    const current = await UserMissionModel.findById(id, { status: 1 }).lean();
    if (!current) throw new AppError('NOT_FOUND');
    throw new AppError('MISSION_NOT_PENDING', { status: current.status });
  }
  if (review.status === 'done') await creditApproval(reviewed);
  await notifyReview(reviewed);
  return reviewed;
}

/** Tells the player how their claim was reviewed; a rejection is keyed by its claim, since the mission can be tried again. */
async function notifyReview(reviewed: {
  _id: Types.ObjectId;
  user: Types.ObjectId;
  mission: Types.ObjectId;
  coin: Types.ObjectId;
  status: string;
  reward: number;
  rejectReason: string;
  claimedAt?: Date | null;
}) {
  const [mission, coin] = await Promise.all([MissionModel.findById(reviewed.mission, { title: 1 }).lean(), findGiftCoin(reviewed.coin, { symbol: 1 })]);
  const title = mission?.title ?? '';
  if (reviewed.status === 'done') {
    const reward = reviewed.reward > 0 && coin ? { amount: fromMicros(reviewed.reward), symbol: coin.symbol } : {};
    await notify(reviewed.user, `mission-approved:${reviewed._id}`, 'mission-approved', { mission: title, ...reward });
  } else {
    const claim = reviewed.claimedAt?.getTime() ?? 0;
    await notify(reviewed.user, `mission-rejected:${reviewed._id}:${claim}`, 'mission-rejected', { mission: title, reason: reviewed.rejectReason });
  }
}

interface CreditableProgress {
  _id: Id;
  user: Types.ObjectId;
  coin: Types.ObjectId;
  reward: number;
  reviewedBy?: Types.ObjectId | null;
}

/** A mission's reward goes to the ledger under `mission:<userMissionId>`, so it is credited once whoever calls. */
async function creditMissionReward(progress: CreditableProgress): Promise<void> {
  if (progress.reward <= 0) return;
  await postEntry({
    userId: progress.user,
    coinId: progress.coin,
    amount: BigInt(progress.reward),
    reason: 'mission',
    refType: 'UserMission',
    refId: String(progress._id),
    idempotencyKey: `mission:${progress._id}`,
    createdBy: progress.reviewedBy ?? null,
  });
}

/**
 * Finishes a mission marked done with its credit owed (`awaitingCredit`, set in the same step as done, by a
 * claim or an approval): credits it once (by its key), brings doneMissionsCount up to the records, and
 * clears the flag. The claim, the review, a repeated claim and the recovery sweep all call this; true for
 * the caller that cleared the flag.
 */
async function creditApproval(approved: CreditableProgress): Promise<boolean> {
  await creditMissionReward(approved);
  await faultPoint('mission:after-credit');
  await raiseMissionCount(approved.user, 'doneMissionsCount', await UserMissionModel.countDocuments({ user: approved.user, status: 'done' }));
  const finished = await UserMissionModel.updateOne({ _id: approved._id, awaitingCredit: true }, { $set: { awaitingCredit: false } });
  return finished.modifiedCount > 0;
}

/** Finishes claims and approvals a crash interrupted between done and the credit; returns how many this call finished. Safe to run any time. */
export async function recoverApprovedMissions(olderThanMs = 30_000): Promise<number> {
  const interrupted = await UserMissionModel.find({ status: 'done', awaitingCredit: true, doneAt: { $lte: new Date(Date.now() - olderThanMs) } }).limit(1000);
  let finished = 0;
  for (const approved of interrupted) if (await creditApproval(approved)) finished++;
  return finished;
}

/** How many missions pay in a coin. */
function countMissionsPayingIn(coinId: string): Promise<number> {
  return MissionModel.countDocuments({ coin: coinId });
}

/** How many missions a category holds. */
function countMissionsInCategory(categoryId: string): Promise<number> {
  return MissionModel.countDocuments({ category: categoryId });
}

/** Deletes a mission no player has started: progress and credited rewards point at it, so disable it instead. */
export async function deleteMission(id: string): Promise<void> {
  const progress = await UserMissionModel.countDocuments({ mission: id });
  if (progress) throw new AppError('IN_USE', { uses: `${progress} player${progress === 1 ? "'s progress" : "s' progress"} (disable it instead)` });
  await MissionModel.deleteOne({ _id: id });
}

/** The ids of missions whose title contains the text, in any case (the missions are few: a scan). */
export function missionIdsMatching(text: string, limit: number) {
  return MissionModel.find({ title: new RegExp(escapeRegex(text), 'i') }, { _id: 1 })
    .limit(limit)
    .lean();
}

/** Missions done in [from, to), through the index on doneAt. */
export function countDoneBetween(from: Date, to: Date): Promise<number> {
  return UserMissionModel.countDocuments({ doneAt: { $gte: from, $lt: to }, status: 'done' });
}

/** Manual missions waiting for an operator's review. */
export function countReviewsWaiting(): Promise<number> {
  return UserMissionModel.countDocuments({ status: 'pending' });
}

registerCoinUse({ order: 2, count: countMissionsPayingIn, describe: (count) => plural(count, 'mission') });
registerCategoryUse(countMissionsInCategory);
