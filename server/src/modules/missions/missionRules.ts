import type { ErrorCode, UserMissionStatus, VerifyType } from '@gift/shared';

/** What a player sees of their progress on a mission. */
export type PlayerMissionStatus = 'not_started' | UserMissionStatus;

const MINUTE_MS = 60_000;

/**
 * Verify types the player proves by waiting after Go: Instagram offers no way to check a follow, nothing can check a story,
 * and only the player's own Telegram knows the home-screen shortcut (its word is taken, after the wait).
 */
function verifiesByTime(verifyType: VerifyType): boolean {
  return verifyType === 'time' || verifyType === 'instagram' || verifyType === 'homeScreen' || verifyType === 'story';
}

/** When Claim starts working for a mission verified by time; null when time plays no part. */
export function claimableAt(verifyType: VerifyType, verifyDuration: number, startedAt: Date | null | undefined): Date | null {
  if (!verifiesByTime(verifyType) || !startedAt) return null;
  return new Date(startedAt.getTime() + verifyDuration * MINUTE_MS);
}

/** ⭐ missions come first: any other mission waits until every enabled star mission is done. */
export function blockedByStarMissions(mission: { mustDone: boolean }, unfinishedStarMissions: number): boolean {
  return !mission.mustDone && unfinishedStarMissions > 0;
}

export interface ClaimSituation {
  verifyType: VerifyType;
  verifyDuration: number;
  mustDone: boolean;
  status: PlayerMissionStatus;
  startedAt: Date | null;
  /** Enabled star missions this player has not done yet. */
  unfinishedStarMissions: number;
  now: Date;
}

/**
 * What happens next once the server-side facts are known:
 * - complete: credit the reward now (Auto, Time, Instagram and Story once their wait is over)
 * - review: becomes pending for an operator (Manual)
 * - checkMembership: ask Telegram whether the player joined (Telegram)
 * - checkCode: compare the typed code with the secret one (YouTube)
 * - checkBoost: ask Telegram whether the player boosts the channel (Boost)
 * - checkEmojiStatus: ask Telegram whether the player's emoji status is the mission's (Emoji status)
 * - checkHomeScreen: the player's Telegram must have said the shortcut is on the home screen (Home screen; client-attested)
 */
type ClaimStep = 'complete' | 'review' | 'checkMembership' | 'checkCode' | 'checkBoost' | 'checkEmojiStatus' | 'checkHomeScreen';
export type ClaimDecision = { step: ClaimStep; startFirst: boolean } | { refuse: ErrorCode; params?: Record<string, string> };

const STEP_BY_TYPE: Record<VerifyType, ClaimStep> = {
  auto: 'complete',
  time: 'complete',
  instagram: 'complete',
  telegram: 'checkMembership',
  youtube: 'checkCode',
  manual: 'review',
  boost: 'checkBoost',
  emojiStatus: 'checkEmojiStatus',
  homeScreen: 'checkHomeScreen',
  story: 'complete',
};

/**
 * Decides a claim. A finished or waiting mission says so before anything else; then the star gate;
 * then Go must have been tapped (a rejected one must be started again), except Auto, which is done
 * by claiming and so is started on the way (`startFirst`); then the wait of time-verified missions.
 */
export function decideClaim(situation: ClaimSituation): ClaimDecision {
  const { status, verifyType } = situation;
  if (status === 'done') return { refuse: 'ALREADY_DONE' };
  if (status === 'pending') return { refuse: 'ALREADY_PENDING' };
  if (blockedByStarMissions(situation, situation.unfinishedStarMissions)) return { refuse: 'STAR_MISSIONS_FIRST' };
  const started = status === 'started';
  if (!started && verifyType !== 'auto') return { refuse: 'MISSION_NOT_STARTED' };
  const readyAt = claimableAt(verifyType, situation.verifyDuration, situation.startedAt);
  if (readyAt && situation.now < readyAt) return { refuse: 'TOO_EARLY', params: { claimableAt: readyAt.toISOString() } };
  return { step: STEP_BY_TYPE[verifyType], startFirst: !started };
}

/** A YouTube code matches whatever the case and surrounding spaces; an empty secret never matches. */
export function codeMatches(secretCode: string | null | undefined, typed: string | undefined): boolean {
  const secret = (secretCode ?? '').trim().toLowerCase();
  return secret.length > 0 && secret === (typed ?? '').trim().toLowerCase();
}
