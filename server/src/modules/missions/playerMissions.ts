import type { Types } from 'mongoose';
import { fromMicros, telegramBoostTarget, type MissionRepeat, type ProofKind, type UserMissionStatus, type VerifyType } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { calendarDay } from '../../lib/calendarDay';
import { recentAppConfig } from '../config/config.service';
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
  /** When it stops being offered (a countdown to it); null: no end. */
  endsAt: Date | null;
  /** `daily`: its status is today's, and it can be done again tomorrow. */
  repeat: MissionRepeat;
  /** Every place is taken (its cap reached) and this player holds none: Claim would be refused. */
  full: boolean;
  /** What a Manual mission's claim must carry: any of a link, a text, a picture. */
  proof: ProofKind[];
  /** An emoji status mission's custom emoji id (what Go asks Telegram to set); '' otherwise. */
  emojiId: string;
  /** A story mission's picture or video and caption (what Go opens Telegram's story editor with); null otherwise. */
  story: { media: string; text: string } | null;
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
  fa?: { title?: string; description?: string; claimButton?: string; goButton?: string; storyText?: string };
  telegramChatId?: string;
  emojiId?: string;
  storyMedia?: string;
  storyText?: string;
  mustDone: boolean;
  endsAt?: Date | null;
  repeat?: MissionRepeat;
  cap?: number | null;
  completions?: number;
  proof?: ProofKind[];
  coinDocs: Array<{ _id: Types.ObjectId; symbol: string }>;
}

export interface PlayerProgress {
  _id: Types.ObjectId;
  mission: Types.ObjectId;
  status: UserMissionStatus;
  startedAt: Date | null;
  rejectReason: string;
  /** A canned reason's Persian (blank: the English is shown). */
  rejectReasonFa?: string;
  day?: string | null;
}

/** The buttons' default words, in each language the app speaks: an untouched English default is not shown to a Persian player. */
const DEFAULT_BUTTONS = { claim: { en: 'Claim', fa: 'دریافت' }, go: { en: 'Go', fa: 'برو' } } as const;

/** Go's default words where the mission's own action says more than "Go": what the player's Telegram will do. */
const NATIVE_GO: Partial<Record<VerifyType, { en: string; fa: string }>> = {
  boost: { en: 'Boost', fa: 'بوست' },
  homeScreen: { en: 'Add to home screen', fa: 'افزودن به صفحهٔ اصلی' },
  emojiStatus: { en: 'Set emoji status', fa: 'گذاشتن وضعیت اموجی' },
  story: { en: 'Share a story', fa: 'اشتراک استوری' },
};

/** A button's text: the operator's own words in the player's language, else the default in it. */
function buttonText(
  language: string | undefined,
  kind: keyof typeof DEFAULT_BUTTONS,
  english: string | undefined,
  fa: string | undefined,
  verifyType?: VerifyType,
) {
  const words = DEFAULT_BUTTONS[kind];
  const shown = (kind === 'go' && verifyType && NATIVE_GO[verifyType]) || words;
  const typed = english?.trim() && english.trim() !== words.en ? english : '';
  if (language === 'fa') return fa?.trim() || typed || shown.fa;
  return typed || shown.en;
}

/** The link Go opens: a boost mission's is its channel's boost page, whatever public link the operator gave. */
export function goLink(mission: { verifyType: VerifyType; link?: string | null; telegramChatId?: string | null }): string {
  if (mission.verifyType !== 'boost') return mission.link ?? '';
  const target = telegramBoostTarget(mission.link, mission.telegramChatId);
  return 'boostLink' in target ? target.boostLink : '';
}

function presentMission(mission: MissionRow, progress: PlayerProgress | undefined, language: string | undefined): PlayerMission {
  const status: PlayerMissionStatus = progress?.status ?? 'not_started';
  const text = textFor(language);
  return {
    id: String(mission._id),
    categoryId: String(mission.category),
    title: text(mission.title, mission.fa?.title),
    description: text(mission.description, mission.fa?.description),
    link: goLink(mission),
    image: mission.image ?? '',
    reward: fromMicros(mission.reward ?? 0),
    coin: { id: String(mission.coin), symbol: mission.coinDocs[0]?.symbol ?? '' },
    verifyType: mission.verifyType,
    verifyDuration: mission.verifyDuration ?? 0,
    claimButton: buttonText(language, 'claim', mission.claimButton, mission.fa?.claimButton),
    goButton: buttonText(language, 'go', mission.goButton, mission.fa?.goButton, mission.verifyType),
    mustDone: !!mission.mustDone,
    status,
    claimableAt: status === 'started' ? claimableAt(mission.verifyType, mission.verifyDuration, progress?.startedAt) : null,
    rejectReason: status === 'rejected' ? text(progress?.rejectReason, progress?.rejectReasonFa) : '',
    endsAt: mission.endsAt ?? null,
    repeat: mission.repeat ?? 'none',
    proof: mission.verifyType === 'manual' ? (mission.proof ?? []) : [],
    emojiId: mission.verifyType === 'emojiStatus' ? (mission.emojiId ?? '') : '',
    story:
      mission.verifyType === 'story' ? { media: mission.storyMedia ?? '', text: text(mission.storyText, mission.fa?.storyText) } : null,
    full:
      !!mission.cap &&
      (mission.completions ?? 0) >= mission.cap &&
      (status === 'not_started' || status === 'started' || status === 'rejected'),
  };
}

/** One query: the enabled missions matching `match` and inside their dates, in their order, each with its coin; the secret code left out. */
function enabledMissions(match: Record<string, unknown>, now: Date): Promise<MissionRow[]> {
  return MissionModel.aggregate<MissionRow>([
    {
      $match: {
        ...match,
        enabled: true,
        $and: [{ $or: [{ startsAt: null }, { startsAt: { $lte: now } }] }, { $or: [{ endsAt: null }, { endsAt: { $gt: now } }] }],
      },
    },
    { $sort: { order: 1, _id: 1 } },
    { $project: { secretCode: 0, seating: 0 } },
    { $lookup: { from: GIFT_COINS_COLLECTION, localField: 'coin', foreignField: '_id', as: 'coinDocs' } },
  ]);
}

/** The App Config, as a promise several readers of one request share: its short-lived copy (`recentAppConfig`). */
export type ConfigRead = ReturnType<typeof recentAppConfig>;

/**
 * Today, as daily missions and streaks count days: the calendar day in the App Config's timezone, read from its short-lived copy.
 * Safe for a claim: no amount comes from it, and each day's progress pays once under its own key; another instance's copy, at
 * most 3 s older than an operator's change of timezone, names the day the change itself would have named a moment before it.
 */
export async function todayForMissions(now: Date, config: ConfigRead = recentAppConfig()): Promise<string> {
  return calendarDay(now, (await config).timezone || 'UTC');
}

/** Every day it may be today somewhere (UTC-12 to UTC+14): progress can be asked for before the timezone is read. */
function daysAround(now: Date): string[] {
  const day = (offsetHours: number) => new Date(now.getTime() + offsetHours * 3_600_000).toISOString().slice(0, 10);
  return [...new Set([day(-12), day(0), day(14)])];
}

/**
 * One query, sent without waiting for the App Config: this player's progress on every mission they touched, a daily
 * one's of the days around now only (bounded by the number of missions). `ofToday` keeps today's.
 */
function progressOf(userId: Id, now: Date): Promise<PlayerProgress[]> {
  return UserMissionModel.find(progressFilter(userId, now), PROGRESS_FIELDS).lean<PlayerProgress[]>();
}

/** `progressOf`'s filter: this player's progress, a daily mission's of the days around now only. */
export const progressFilter = (userId: Id, now: Date) => ({ user: objectId(userId), day: { $in: [null, ...daysAround(now)] } });
export const PROGRESS_FIELDS = { mission: 1, status: 1, startedAt: 1, rejectReason: 1, rejectReasonFa: 1, day: 1 } as const;

/** Progress on missions done once, and on daily ones today. */
export const ofToday = (progress: PlayerProgress[], today: string) => progress.filter((p) => !p.day || p.day === today);

/**
 * The enabled missions (optionally of one category) with this player's status, in the player's language: two queries, run
 * together.
 */
export async function playerMissions(
  player: { _id: Id; language?: string },
  now: Date,
  match: Record<string, unknown> = {},
  config: ConfigRead = recentAppConfig(),
): Promise<PlayerMission[]> {
  const [missions, everyDay, today] = await Promise.all([
    enabledMissions(match, now),
    progressOf(player._id, now),
    todayForMissions(now, config),
  ]);
  const progress = ofToday(everyDay, today);
  const byMission = new Map(progress.map((p) => [String(p.mission), p]));
  return missions.map((m) => presentMission(m, byMission.get(String(m._id)), player.language));
}

/** A category and its enabled missions for this player, in their language; a disabled category is not found. */
export async function missionsOfCategory(player: { _id: Id; language?: string }, categoryId: string, now: Date) {
  const [category, missions] = await Promise.all([
    findEnabledCategory(categoryId),
    playerMissions(player, now, { category: objectId(categoryId) }),
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
