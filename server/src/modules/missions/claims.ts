import { Types } from 'mongoose';
import { fromMicros, type ProofKind } from '@gift/shared';
import type { Env } from '../../env';
import { AppError, badInput } from '../../lib/errors';
import { isProofImageOf } from '../proofs/proofs.service';
import { idOfKey, objectId, type Id } from '../../db/ids';
import { markRiskDue } from '../users/players.service';
import { codeMatches, decideClaim } from './missionRules';
import { MissionModel, UserMissionModel } from './mission.models';
import {
  creditMission,
  finishMissionCredit,
  finishMissionStart,
  isCreditRefused,
  isMissionFull,
  sendClaimForReview,
  startProgressOperation,
  type CreditedProgress,
  type MissionCredit,
} from './missions.kinds';
import { goLink, ofToday, progressFilter, PROGRESS_FIELDS, todayForMissions, type PlayerProgress } from './playerMissions';
import { requireBoost, requireEmojiStatus, requireMembership } from './telegramMembership';
import { countEarlierCompletions } from './missionPlaces';

type StartableMission = {
  _id: Types.ObjectId;
  category: Types.ObjectId | null | undefined;
  coin: Types.ObjectId | null | undefined;
  reward: number;
  repeat?: string | null;
};

/**
 * The id of a player's progress on a mission (of a day, for a daily one), derived from them: a first claim's retry, a Go and
 * the engine's sweep name the same record, and the operations keyed by it (its credit, its start) are the same.
 */
const progressIdOf = (user: Types.ObjectId, mission: Types.ObjectId, day: string | null) =>
  idOfKey('user-mission', String(user), String(mission), day ?? '');

/**
 * Records that the player tapped Go: creates their progress once, counted in missionsCount (the `mission-start` operation:
 * missions.kinds.ts), restarts a rejected one, and leaves a started, pending or done one as it is (Go again does not reset a
 * wait).
 */
async function startProgress(userId: Id, mission: StartableMission, now: Date, today: string) {
  const user = objectId(userId);
  // a daily mission is done again each day: each day is its own progress
  const day = mission.repeat === 'daily' ? today : null;
  const find = () => UserMissionModel.findOne({ user, mission: mission._id, day });
  let progress = await find();
  // a Go again finishes its first one's operation if a crash cut it off (its count)
  if (progress) await finishMissionStart(progress._id);
  else {
    const { category, coin, reward } = mission;
    await startProgressOperation(
      { _id: progressIdOf(user, mission._id, day), user, mission: mission._id, day, category: category!, coin: coin!, reward },
      now,
    );
    progress = (await find())!;
  }
  if (progress.status === 'rejected') {
    const restarted = await UserMissionModel.findOneAndUpdate(
      { _id: progress._id, status: 'rejected' },
      { $set: { status: 'started', startedAt: now, claimedAt: null, rejectReason: '', rejectReasonFa: '' } },
      { returnDocument: 'after' },
    );
    return restarted ?? (await UserMissionModel.findById(progress._id))!;
  }
  return progress;
}

/** An enabled mission inside its dates: one not started yet is not found, one past its end says it has ended. */
async function findOpenMission(missionId: string, now: Date) {
  return openMission(await MissionModel.findOne({ _id: objectId(missionId), enabled: true }).lean(), now);
}

function openMission<M extends { startsAt?: Date | null; endsAt?: Date | null }>(mission: M | null | undefined, now: Date): M {
  if (!mission || (mission.startsAt && mission.startsAt > now)) throw new AppError('NOT_FOUND');
  if (mission.endsAt && mission.endsAt <= now) throw new AppError('MISSION_ENDED');
  return mission;
}

type ClaimedMission = NonNullable<Awaited<ReturnType<typeof findOpenMission>>> & { secretCode?: string };
type ClaimProgress = PlayerProgress & { user: Types.ObjectId };

/**
 * What a claim decides on, in one query: the mission (its secret code included), every enabled ⭐ mission, and this player's
 * progress (`progressOf`'s: each row of the union is a mission or, naming its player, a progress record).
 */
async function claimFacts(userId: Id, missionId: string, now: Date) {
  const rows = await MissionModel.aggregate<ClaimedMission | ClaimProgress>([
    { $match: { enabled: true, $or: [{ _id: objectId(missionId) }, { mustDone: true }] } },
    { $project: { placeKeys: 0 } },
    {
      $unionWith: {
        coll: UserMissionModel.collection.name,
        pipeline: [{ $match: progressFilter(userId, now) }, { $project: { ...PROGRESS_FIELDS, user: 1 } }],
      },
    },
  ]);
  const isProgress = (row: ClaimedMission | ClaimProgress): row is ClaimProgress => 'user' in row && !!row.user;
  const missions = rows.filter((row): row is ClaimedMission => !isProgress(row));
  return {
    mission: openMission(
      missions.find((m) => String(m._id) === missionId),
      now,
    ),
    starMissions: missions.filter((m) => m.mustDone),
    everyDay: rows.filter(isProgress),
  };
}

/** Go: records the start and gives the link to open. */
export async function startMission(userId: Id, missionId: string, now: Date): Promise<{ link: string }> {
  const [mission, today] = await Promise.all([findOpenMission(missionId, now), todayForMissions(now)]);
  await startProgress(userId, mission, now, today);
  return { link: goLink(mission) };
}

async function refusalFor(progressId: Types.ObjectId): Promise<AppError> {
  await finishMissionCredit(progressId);
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
  /** The player, with when their risk score was marked due (null: not due), as they were read for this call. */
  user: { id: Id; telegramId: number; riskDueAt?: Date | null };
  missionId: string;
  code?: string;
  /** A Manual mission's proof, as the player attached it. */
  proof?: ClaimProof;
  /** What the player's Telegram answered about the app's home-screen shortcut (a Home screen mission): only its word. */
  homeScreen?: string;
  now: Date;
  env: Env;
}

interface ClaimProof {
  link?: string;
  text?: string;
  imageId?: string;
}

const PROOF_MISSING: Record<ProofKind, [keyof ClaimProof, string]> = {
  link: ['link', 'Add the link'],
  text: ['text', 'Write what you did'],
  image: ['imageId', 'Add a screenshot'],
};

/**
 * The proof a Manual mission asks for, checked before anything changes: each kind present, and a picture uploaded by this
 * player. Keeps only what the mission asks for.
 */
async function checkedProof(kinds: readonly ProofKind[], proof: ClaimProof | undefined, playerId: Id): Promise<Required<ClaimProof>> {
  const errors: Record<string, string> = {};
  for (const kind of kinds) {
    const [field, message] = PROOF_MISSING[kind];
    if (!proof?.[field]) errors[`proof.${field}`] = message;
  }
  if (kinds.includes('image') && proof?.imageId && !(await isProofImageOf(proof.imageId, playerId)))
    errors['proof.imageId'] = 'This picture was not found: add it again';
  if (Object.keys(errors).length) throw badInput(errors);
  return {
    link: kinds.includes('link') ? (proof?.link ?? '') : '',
    text: kinds.includes('text') ? (proof?.text ?? '') : '',
    imageId: kinds.includes('image') ? (proof?.imageId ?? '') : '',
  };
}

/**
 * Claim: decides by the rules, verifies by the mission's type, then completes. Completing is an operation of the money engine
 * (missions.kinds.ts), recorded before anything else: the credit's (`mission-credit`, under `entryKeys.missionReward`), or a
 * Manual claim's review (`mission-review`). Its admit takes the claim's place among the mission's completions (refused, with
 * nothing changed, once a cap is reached) and marks the progress done or pending, each once per operation: simultaneous
 * claims credit once (the others are told it is done), and a crash after any write loses nothing (a repeated claim or the
 * engine's sweep finishes it). Its step counts it in the player's counters.
 */
export async function claimMission(input: ClaimMissionInput): Promise<ClaimResult> {
  const { user, missionId, now } = input;
  const { mission, starMissions, everyDay } = await claimFacts(user.id, missionId, now);
  // the day matters only where a daily mission is involved: only then is the App Config asked for it
  const daily = [mission, ...starMissions].some((m) => m.repeat === 'daily');
  const today = daily ? await todayForMissions(now) : '';
  const progress = ofToday(everyDay, today);
  const mine = progress.find((p) => String(p.mission) === String(mission._id));
  // a claim that repeats one a crash or an outage interrupted finishes its credit before being told it is done
  if (mine?.status === 'done') await finishMissionCredit(mine._id);
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

  if (decision.step === 'checkMembership') await requireMembership(input.env, mission, user.telegramId);
  if (decision.step === 'checkBoost') await requireBoost(input.env, mission, user.telegramId, now);
  if (decision.step === 'checkEmojiStatus') await requireEmojiStatus(input.env, mission, user.telegramId);
  // the server cannot see a phone's home screen: the player's Telegram said so (the weakest check, after the wait)
  if (decision.step === 'checkHomeScreen' && input.homeScreen !== 'added') throw new AppError('HOME_SCREEN_NOT_ADDED');
  if (decision.step === 'checkCode' && !codeMatches(mission.secretCode, input.code)) throw new AppError('INCORRECT_CODE');
  const proof = decision.step === 'review' ? await checkedProof(mission.proof ?? [], input.proof, user.id) : null;
  // a mission whose progress predates its counter has it counted before a place is taken in it (once)
  if (mission.completionsCounted !== true) await countEarlierCompletions(mission._id);

  const result: ClaimResult = { status: 'done', reward: fromMicros(mission.reward), coinId: String(mission.coin) };
  // the pace of claims is one of the risk score's signals: a player not yet due is marked (with the counts, on a first claim)
  const markRiskDueAt = user.riskDueAt ? undefined : now;
  const review = decision.step === 'review';
  // a mission full as read is refused at once, no operation recorded (a claim started it all the same)
  if (mission.cap && (mission.completions ?? 0) >= mission.cap) {
    if (markRiskDueAt) await markRiskDue([user.id], now);
    if (decision.startFirst) await startProgress(user.id, mission, now, today);
    throw new AppError('MISSION_FULL');
  }
  if (decision.startFirst && !mine && !review && (await firstClaim(user.id, mission, now, today, markRiskDueAt))) return result;
  const pending = await usualClaim(input, mission, decision.startFirst ? null : mine!, { today, review, proof, markRiskDueAt });
  return pending ? { ...result, status: 'pending' } : result;
}

/** The progress a claim credits: the player's, on the mission as claimed. */
function credited(progressId: Types.ObjectId, user: Types.ObjectId, mission: ClaimedMission, day: string | null): CreditedProgress {
  return { _id: progressId, user, mission: mission._id, day, category: mission.category, coin: mission.coin, reward: mission.reward };
}

/**
 * Credits a claim (its operation takes the place and marks the progress done: see missions.kinds.ts). False when refused
 * (the progress taken meanwhile); a repeat of a claim another call recorded is told it is done already. A frozen or banned
 * player's claim is done, its credit owed (paid once they are active): the hold is thrown.
 */
async function creditClaim(credit: MissionCredit): Promise<boolean> {
  let recorded;
  try {
    ({ recorded } = await creditMission(credit));
  } catch (error) {
    if (isCreditRefused(error)) return false;
    throw error;
  }
  if (!recorded) throw new AppError('ALREADY_DONE');
  return true;
}

/**
 * A player's first claim of a mission they never started (Auto): one operation takes the place and writes the progress done
 * at once, under the id a Go would give it, so a retry after a crash finishes the same operation. False when the progress was
 * there after all (a simultaneous Go): nothing changed, and the claim goes the usual way with it. No place: the claim started
 * the mission, and the risk score hears of it.
 */
async function firstClaim(userId: Id, mission: ClaimedMission, now: Date, today: string, markRiskDueAt: Date | undefined) {
  const user = objectId(userId);
  const day = mission.repeat === 'daily' ? today : null;
  const progress = credited(progressIdOf(user, mission._id, day), user, mission, day);
  try {
    return await creditClaim({ progress, via: 'first', at: now, cap: mission.cap, markRiskDueAt });
  } catch (error) {
    if (!isMissionFull(error)) throw error;
    if (markRiskDueAt) await markRiskDue([user], now);
    await startProgress(user, mission, now, today);
    throw error;
  }
}

/**
 * The usual claim: the progress started (by the claim itself for Auto), then its operation takes a place among the mission's
 * completions and marks it done (its credit) or waiting for review. Returns true for one waiting for review.
 */
async function usualClaim(
  input: ClaimMissionInput,
  mission: ClaimedMission,
  started: { _id: Types.ObjectId; startedAt: Date | null } | null,
  options: { today: string; review: boolean; proof: Required<ClaimProof> | null; markRiskDueAt: Date | undefined },
): Promise<boolean> {
  const { user, now } = input;
  if (options.markRiskDueAt) await markRiskDue([user.id], now);
  const progress = started ?? (await startProgress(user.id, mission, now, options.today));
  try {
    if (!options.review) {
      const day = mission.repeat === 'daily' ? options.today : null;
      const credit = {
        progress: credited(progress._id, objectId(user.id), mission, day),
        via: 'claim',
        at: now,
        cap: mission.cap,
      } as const;
      if (!(await creditClaim(credit))) throw await refusalFor(progress._id);
      return false;
    }
    const { _id, coin, reward } = { ...mission, _id: progress._id };
    const claim = { _id, user: objectId(user.id), mission: mission._id, coin, reward };
    const sent = await sendClaimForReview({
      progress: claim,
      startedAt: progress.startedAt!,
      at: now,
      cap: mission.cap,
      proof: options.proof!,
    });
    if (!sent.recorded) throw new AppError('ALREADY_PENDING');
    return true;
  } catch (error) {
    if (isCreditRefused(error)) throw await refusalFor(progress._id);
    // a place is refused only to a progress still to be claimed: one claimed meanwhile says so
    if (isMissionFull(error)) {
      const current = await UserMissionModel.findById(progress._id, { status: 1 }).lean();
      throw current?.status === 'started' ? error : await refusalFor(progress._id);
    }
    throw error;
  }
}
