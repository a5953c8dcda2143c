import type { Types } from 'mongoose';
import { fromMicros, type ProofKind } from '@gift/shared';
import type { Env } from '../../env';
import { AppError, badInput } from '../../lib/errors';
import { isProofImageOf } from '../proofs/proofs.service';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId, type Id } from '../../db/ids';
import { faultPoint } from '../../lib/faults';
import { markRiskDue, raiseMissionCount } from '../users/players.service';
import { codeMatches, decideClaim } from './missionRules';
import { MissionModel, UserMissionModel } from './mission.models';
import { creditApproval, finishInterruptedCredit } from './missionCredit';
import { ofToday, progressOf, todayForMissions } from './playerMissions';
import { requireMembership } from './telegramMembership';
import { settleSeat, takeSeat } from './missionSeats';

type StartableMission = {
  _id: Types.ObjectId;
  category: Types.ObjectId | null | undefined;
  coin: Types.ObjectId | null | undefined;
  reward: number;
  repeat?: string | null;
};

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
  if (created) {
    await raiseMissionCount(user, 'missionsCount', await UserMissionModel.countDocuments({ user }));
    return progress;
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
async function findOpenMission(missionId: string, now: Date, withSecret = false) {
  const query = MissionModel.findOne({ _id: objectId(missionId), enabled: true });
  const mission = await (withSecret ? query.select('+secretCode') : query).lean();
  if (!mission || (mission.startsAt && mission.startsAt > now)) throw new AppError('NOT_FOUND');
  if (mission.endsAt && mission.endsAt <= now) throw new AppError('MISSION_ENDED');
  return mission;
}

/** Go: records the start and gives the link to open. */
export async function startMission(userId: Id, missionId: string, now: Date): Promise<{ link: string }> {
  const [mission, today] = await Promise.all([findOpenMission(missionId, now), todayForMissions(now)]);
  await startProgress(userId, mission, now, today);
  return { link: mission.link ?? '' };
}

async function refusalFor(progressId: Types.ObjectId): Promise<AppError> {
  await finishInterruptedCredit(progressId);
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
  user: { id: Id; telegramId: number };
  missionId: string;
  code?: string;
  /** A Manual mission's proof, as the player attached it. */
  proof?: ClaimProof;
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
 * Claim: decides by the rules, verifies by the mission's type, then completes.
 * Completing credits the ledger under its key (`entryKeys.missionReward`) before the conditional
 * started → done step: the key makes every repeat harmless, so simultaneous claims credit once and a
 * crash between the two writes loses nothing (the next claim finishes it). Only the claim that wins the
 * step counts it in doneMissionsCount.
 */
export async function claimMission(input: ClaimMissionInput): Promise<ClaimResult> {
  const { user, missionId, now } = input;
  const [mission, starMissions, everyDay, today] = await Promise.all([
    findOpenMission(missionId, now, true),
    MissionModel.find({ mustDone: true, enabled: true }, { _id: 1 }).lean(),
    progressOf(user.id, now),
    todayForMissions(now),
  ]);
  const progress = ofToday(everyDay, today);
  const mine = progress.find((p) => String(p.mission) === String(mission._id));
  // a claim that repeats one a crash or an outage interrupted finishes its credit before being told it is done
  if (mine?.status === 'done') await finishInterruptedCredit(mine._id);
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
  if (decision.step === 'checkCode' && !codeMatches(mission.secretCode, input.code)) throw new AppError('INCORRECT_CODE');
  const proof = decision.step === 'review' ? await checkedProof(mission.proof ?? [], input.proof, user.id) : null;

  // the pace of claims is one of the risk score's signals
  await markRiskDue([user.id], now);
  const progressId = decision.startFirst ? (await startProgress(user.id, mission, now, today))._id : mine!._id;
  const result: ClaimResult = { status: 'done', reward: fromMicros(mission.reward), coinId: String(mission.coin) };

  // a place among the mission's completions (refused once a cap is reached), then the progress seated in it
  if (!(await takeSeat(mission._id, progressId, mission.cap, now))) {
    const current = await UserMissionModel.findById(progressId, { status: 1 }).lean();
    throw current?.status === 'started' ? new AppError('MISSION_FULL') : await refusalFor(progressId);
  }
  const review = decision.step === 'review';
  const seated = await UserMissionModel.findOneAndUpdate(
    // not if its place was given back meanwhile (this claim was slow enough for the sweep to settle its hold)
    { _id: progressId, status: 'started', seatReleased: { $ne: true } },
    {
      $set: review
        ? { status: 'pending', claimedAt: now, reward: mission.reward, coin: mission.coin, seated: true, proof }
        : { status: 'done', claimedAt: now, doneAt: now, reward: mission.reward, coin: mission.coin, awaitingCredit: true, seated: true },
    },
    { returnDocument: 'after' },
  );
  await settleSeat(mission._id, progressId);
  if (!seated) throw await refusalFor(progressId);
  if (review) return { ...result, status: 'pending' };
  await faultPoint('mission:after-done');
  await creditApproval(seated, { holdThrows: true });
  return result;
}
