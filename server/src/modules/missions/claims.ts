import { Types } from 'mongoose';
import { fromMicros, type ProofKind } from '@gift/shared';
import type { Env } from '../../env';
import { AppError, badInput, isHold } from '../../lib/errors';
import { isProofImageOf } from '../proofs/proofs.service';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId, type Id } from '../../db/ids';
import { faultPoint } from '../../lib/faults';
import { countMissionProgress, markRiskDue } from '../users/players.service';
import { codeMatches, decideClaim } from './missionRules';
import { MissionModel, UserMissionModel } from './mission.models';
import { creditMission, finishMissionCredit, isCreditRefused, type CreditedProgress, type MissionCredit } from './missions.kinds';
import { goLink, ofToday, progressFilter, PROGRESS_FIELDS, todayForMissions, type PlayerProgress } from './playerMissions';
import { requireBoost, requireEmojiStatus, requireMembership } from './telegramMembership';
import { keepSeat, settleSeat, takeFirstSeat, takeSeat } from './missionSeats';

type StartableMission = {
  _id: Types.ObjectId;
  category: Types.ObjectId | null | undefined;
  coin: Types.ObjectId | null | undefined;
  reward: number;
  repeat?: string | null;
};

/**
 * Counts a progress record in the player's missionsCount, then clears its `uncounted` flag: a crash in between leaves the flag,
 * and the next Go, claim or approval of it counts it (once: the count is keyed by the record).
 */
async function countStarted(userId: Id, progressId: Types.ObjectId): Promise<void> {
  await countMissionProgress(userId, progressId, ['missionsCount']);
  await UserMissionModel.updateOne({ _id: progressId, uncounted: true }, { $unset: { uncounted: 1 } });
}

/** Counts the progress records a crash left uncounted longer than `olderThanMs` (no Go, claim or approval came back to them); returns how many. */
export async function countUncountedProgress(olderThanMs: number): Promise<number> {
  const owed = await UserMissionModel.find({ uncounted: true, createdAt: { $lte: new Date(Date.now() - olderThanMs) } }, { user: 1 })
    .limit(1000)
    .lean();
  for (const progress of owed) await countStarted(progress.user, progress._id);
  return owed.length;
}

/**
 * Records that the player tapped Go: creates their progress once (counting it in missionsCount),
 * restarts a rejected one, and leaves a started, pending or done one as it is (Go again does not reset a wait).
 */
async function startProgress(userId: Id, mission: StartableMission, now: Date, today: string) {
  const user = objectId(userId);
  // a daily mission is done again each day: each day is its own progress
  const day = mission.repeat === 'daily' ? today : null;
  let created = false;
  let progress;
  try {
    const result = await UserMissionModel.findOneAndUpdate(
      { user, mission: mission._id, day },
      {
        $setOnInsert: {
          user,
          mission: mission._id,
          day,
          category: mission.category,
          coin: mission.coin,
          reward: mission.reward,
          status: 'started',
          startedAt: now,
          uncounted: true,
        },
      },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true, setDefaultsOnInsert: true },
    );
    progress = result.value!;
    created = !result.lastErrorObject?.updatedExisting;
  } catch (error) {
    // real MongoDB: a simultaneous first Go won the unique (user, mission) index
    if (!isDuplicateKey(error)) throw error;
    progress = (await UserMissionModel.findOne({ user, mission: mission._id, day }))!;
  }
  if (created) await faultPoint('mission:after-start');
  // a new record, or one a crash left uncounted (the retry of a Go finds it there)
  if (progress.uncounted) await countStarted(user, progress._id);
  if (created) return progress;
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
type ClaimProgress = PlayerProgress & { user: Types.ObjectId; uncounted?: boolean };

/**
 * What a claim decides on, in one query: the mission (its secret code included), every enabled ⭐ mission, and this player's
 * progress (`progressOf`'s: each row of the union is a mission or, naming its player, a progress record).
 */
async function claimFacts(userId: Id, missionId: string, now: Date) {
  const rows = await MissionModel.aggregate<ClaimedMission | ClaimProgress>([
    { $match: { enabled: true, $or: [{ _id: objectId(missionId) }, { mustDone: true }] } },
    { $project: { seating: 0 } },
    {
      $unionWith: {
        coll: UserMissionModel.collection.name,
        pipeline: [{ $match: progressFilter(userId, now) }, { $project: { ...PROGRESS_FIELDS, user: 1, uncounted: 1 } }],
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
  const current = await UserMissionModel.findById(progressId, { status: 1, seatReleased: 1 }).lean();
  if (current?.status === 'done') return new AppError('ALREADY_DONE');
  if (current?.status === 'pending') return new AppError('ALREADY_PENDING');
  // its place was given back while this claim held it: claiming again takes a new one
  if (current?.status === 'started' && current.seatReleased) return new AppError('UNAVAILABLE');
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
 * Claim: decides by the rules, verifies by the mission's type, then completes. Completing is the credit's operation
 * (`mission-credit`, under `entryKeys.missionReward`: missions.kinds.ts), recorded before anything else, whose admit takes
 * the conditional started → done step: simultaneous claims credit once (the others are told it is done), and a crash after
 * any write loses nothing (a repeated claim or the engine's sweep finishes it). Its step counts it in the player's counters.
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
  // and settles the place it took, if a crash left it held
  if (mine?.status === 'done' || mine?.status === 'pending') await settleSeat(mission._id, mine._id);
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

  const result: ClaimResult = { status: 'done', reward: fromMicros(mission.reward), coinId: String(mission.coin) };
  // the pace of claims is one of the risk score's signals: a player not yet due is marked (with the counts, on a first claim)
  const markRiskDueAt = user.riskDueAt ? undefined : now;
  const review = decision.step === 'review';
  const first = decision.startFirst && !mine && !review ? await seatFirstClaim(user.id, mission, now, today, markRiskDueAt) : null;
  if (first) return result;
  const pending = await seatClaim(input, mission, decision.startFirst ? null : mine!, { today, review, proof, markRiskDueAt });
  if (!pending) return result;
  // a record a crash left uncounted since its Go is counted now
  if (pending.uncounted) await countStarted(user.id, pending._id);
  return { ...result, status: 'pending' };
}

/** The progress a claim credits: the player's, on the mission as claimed. */
function credited(progressId: Types.ObjectId, user: Types.ObjectId, mission: ClaimedMission, day: string | null): CreditedProgress {
  return { _id: progressId, user, mission: mission._id, day, category: mission.category, coin: mission.coin, reward: mission.reward };
}

/**
 * Credits a claim (its operation marks the progress done: see missions.kinds.ts), then settles the place it held (`settle`,
 * told whether the progress was refused). False when refused (the progress taken meanwhile, its place given back); a repeat
 * of a claim another call recorded is told it is done already.
 */
async function creditClaim(credit: MissionCredit, settle: (refused: boolean) => Promise<void>): Promise<boolean> {
  let recorded;
  try {
    ({ recorded } = await creditMission(credit));
  } catch (error) {
    if (isCreditRefused(error)) {
      await settle(true);
      return false;
    }
    // a frozen or banned player's claim is done, its credit owed (paid once they are active): its place is kept
    if (isHold(error)) await settle(false);
    throw error;
  }
  await settle(false);
  if (!recorded) throw new AppError('ALREADY_DONE');
  return true;
}

/**
 * A player's first claim of a mission they never started (Auto): a place is taken for a progress record not written yet (its
 * hold names the player and the day), then the record is written done and seated at once, and the hold settled. Null when the
 * record was there after all (a simultaneous Go or claim, or the sweep settling a hold this claim was too slow to use): the place
 * is given back, and the claim goes the usual way with that record.
 */
async function seatFirstClaim(userId: Id, mission: ClaimedMission, now: Date, today: string, markRiskDueAt: Date | undefined) {
  const user = objectId(userId);
  const day = mission.repeat === 'daily' ? today : null;
  const progressId = await takeFirstSeat(mission._id, new Types.ObjectId(), mission.cap, now, { user, day });
  if (!progressId) {
    // refused as the usual way refuses it: the claim started the mission, and the risk score hears of the claim
    if (markRiskDueAt) await markRiskDue([user], now);
    await startProgress(user, mission, now, today);
    throw new AppError('MISSION_FULL');
  }
  // the operation writes the progress done and seated at once (its admit), and counts it in both counters; the hold is kept
  // once the progress is done and seated, given back when the progress was there already (the claim then goes the usual way)
  return creditClaim(
    { progress: credited(progressId, user, mission, day), via: 'first', at: now, uncounted: true, markRiskDueAt },
    (refused) => (refused ? settleSeat(mission._id, progressId) : keepSeat(mission._id, progressId)),
  );
}

/**
 * The usual claim: the progress started (by the claim itself for Auto), a place taken among the mission's completions (refused
 * once a cap is reached), then the progress seated in it, done (by its credit's operation) or waiting for review, and the hold
 * settled. Returns the progress waiting for review; a done one returns nothing.
 */
async function seatClaim(
  input: ClaimMissionInput,
  mission: ClaimedMission,
  started: { _id: Types.ObjectId; uncounted?: boolean } | null,
  options: { today: string; review: boolean; proof: Required<ClaimProof> | null; markRiskDueAt: Date | undefined },
) {
  const { user, now } = input;
  if (options.markRiskDueAt) await markRiskDue([user.id], now);
  // a progress this claim starts is counted by its start; one a crash left uncounted since its Go is counted with the credit
  const progressId = started?._id ?? (await startProgress(user.id, mission, now, options.today))._id;
  if (!(await takeSeat(mission._id, progressId, mission.cap, now))) {
    const current = await UserMissionModel.findById(progressId, { status: 1 }).lean();
    throw current?.status === 'started' ? new AppError('MISSION_FULL') : await refusalFor(progressId);
  }
  if (!options.review) {
    const day = mission.repeat === 'daily' ? options.today : null;
    const credit = { progress: credited(progressId, objectId(user.id), mission, day), via: 'claim', at: now } as const;
    if (!(await creditClaim({ ...credit, uncounted: !!started?.uncounted }, () => settleSeat(mission._id, progressId))))
      throw await refusalFor(progressId);
    return null;
  }
  const seated = await UserMissionModel.findOneAndUpdate(
    // not if its place was given back meanwhile (this claim was slow enough for the sweep to settle its hold)
    { _id: progressId, status: 'started', seatReleased: { $ne: true } },
    { $set: { status: 'pending', claimedAt: now, reward: mission.reward, coin: mission.coin, seated: true, proof: options.proof } },
    { returnDocument: 'after' },
  );
  await settleSeat(mission._id, progressId);
  if (!seated) throw await refusalFor(progressId);
  return seated;
}
