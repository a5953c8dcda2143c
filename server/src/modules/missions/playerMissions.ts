import type { Types } from 'mongoose';
import { fromMicros, type UserMissionStatus, type VerifyType } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { textFor } from '../../lib/playerLanguage';
import { objectId, type Id } from '../../db/ids';
import { GIFT_COINS_COLLECTION } from '../coins/giftCoins.service';
import { findEnabledCategory } from '../content/categories.service';
import { claimableAt, type PlayerMissionStatus } from './missionRules';
import { MissionModel, UserMissionModel } from './mission.models';

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
  fa?: { title?: string; description?: string; claimButton?: string; goButton?: string };
  mustDone: boolean;
  coinDocs: Array<{ _id: Types.ObjectId; symbol: string }>;
}

export interface PlayerProgress {
  _id: Types.ObjectId;
  mission: Types.ObjectId;
  status: UserMissionStatus;
  startedAt: Date | null;
  rejectReason: string;
}

function presentMission(mission: MissionRow, progress: PlayerProgress | undefined, language: string | undefined): PlayerMission {
  const status: PlayerMissionStatus = progress?.status ?? 'not_started';
  const text = textFor(language);
  return {
    id: String(mission._id),
    categoryId: String(mission.category),
    title: text(mission.title, mission.fa?.title),
    description: text(mission.description, mission.fa?.description),
    link: mission.link ?? '',
    image: mission.image ?? '',
    reward: fromMicros(mission.reward ?? 0),
    coin: { id: String(mission.coin), symbol: mission.coinDocs[0]?.symbol ?? '' },
    verifyType: mission.verifyType,
    verifyDuration: mission.verifyDuration ?? 0,
    claimButton: text(mission.claimButton || 'Claim', mission.fa?.claimButton),
    goButton: text(mission.goButton || 'Go', mission.fa?.goButton),
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
export function progressOf(userId: Id): Promise<PlayerProgress[]> {
  return UserMissionModel.find({ user: objectId(userId) }, { mission: 1, status: 1, startedAt: 1, rejectReason: 1 }).lean<
    PlayerProgress[]
  >();
}

/**
 * The enabled missions (optionally of one category) with this player's status, in the player's language: two queries, run
 * together.
 */
export async function playerMissions(
  player: { _id: Id; language?: string },
  match: Record<string, unknown> = {},
): Promise<PlayerMission[]> {
  const [missions, progress] = await Promise.all([enabledMissions(match), progressOf(player._id)]);
  const byMission = new Map(progress.map((p) => [String(p.mission), p]));
  return missions.map((m) => presentMission(m, byMission.get(String(m._id)), player.language));
}

/** A category and its enabled missions for this player, in their language; a disabled category is not found. */
export async function missionsOfCategory(player: { _id: Id; language?: string }, categoryId: string) {
  const [category, missions] = await Promise.all([
    findEnabledCategory(categoryId),
    playerMissions(player, { category: objectId(categoryId) }),
  ]);
  if (!category) throw new AppError('NOT_FOUND');
  const text = textFor(player.language);
  return {
    category: {
      id: String(category._id),
      title: text(category.title, category.fa?.title),
      description: text(category.description, category.fa?.description),
      image: category.image ?? '',
    },
    missions,
  };
}
