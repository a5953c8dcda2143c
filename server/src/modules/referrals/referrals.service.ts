import { textFor } from '../../lib/playerLanguage';
import { createHash, randomBytes } from 'node:crypto';
import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import { interactiveApi, toBotApiError } from '../../lib/telegramBot';
import { AppError } from '../../lib/errors';
import { findCoin } from '../coins/giftCoins.service';
import { getAppConfig, miniAppLink, resolveBotToken } from '../config/config.service';
import { onRiskCleared, riskHolds } from '../risk/risk.service';
import type { Id } from '../../db/ids';
import { migrateOnce } from '../../db/migrationProgress';
import {
  countFriendsOf,
  countInvite,
  countQualifiedFriends,
  referralsToQualify,
  friendsPageOf,
  markRiskDue,
  referralOf,
  referralsOfOlderVersion,
  referralStateOf,
  referralsWaiting,
  settleReferral,
} from '../users/players.service';
import type { ReferralOutcome, UserDocument } from '../users/players.service';
import { registerReferralJoin } from '../users/users.service';
import { notifyReferrer, payReferralReward, recordJoin, registerJoinDecision } from './referrals.kinds';

/**
 * How a join is decided, by its reward's admit check (referrals.kinds.ts), the same whoever finishes it (the registration,
 * the engine's sweep after a crash), any number of times: the referrer's risk score marked due, the invite counted once while
 * the referrer is below their invite limit; then the friend left to qualify, or waiting on risk, or owed the reward now (null:
 * the admit check settles it rewarded). Beyond the limit the friend stays linked but earns nothing. Every outcome but the
 * reward refuses the operation. Each write is keyed or conditional, so a crash between two of them (the invite counted, the
 * referral not yet settled) is finished by the sweep's run of the same admit.
 */
async function decideJoin(friendId: Types.ObjectId, referrerId: Types.ObjectId): Promise<AppError | null> {
  const friend = await referralOf(friendId);
  // the registration never wrote the friend (killed before it, or a simultaneous first launch wrote another): nothing owed
  if (!friend || String(friend.referrer) !== String(referrerId)) return new AppError('NOT_FOUND');
  if (friend.referralState === 'rewarded') return null;
  if (friend.referralState && friend.referralState !== 'pending') return new AppError('NOT_FOUND');
  // a friend joined: their referrer's score reads the friends
  await markRiskDue([referrerId], friend.createdAt ?? new Date());
  const counted = await countInvite(referrerId, friendId);
  if (!counted) {
    await settleReferral(friendId, 'over-limit');
    return new AppError('NOT_FOUND');
  }
  const config = await getAppConfig();
  // a friend who must first qualify (missions done, days played) earns the reward later, in the sweep's qualification pass
  if (mustQualify(config)) {
    await notifyReferrer('friend-joined', referrerId, friendId);
    await settleReferral(friendId, 'joined');
    return new AppError('NOT_FOUND');
  }
  // the risk gate: while the referrer or the friend is at review or high risk (assessed now, as of the join), the reward is
  // recorded as waiting, and paid once an operator clears them or their score falls (`releaseWaitingReferrals`)
  if (config.referrerCoin && config.referrerCoinAmount > 0 && (await riskHolds([referrerId, friendId], friend.createdAt ?? new Date()))) {
    await notifyReferrer('friend-joined', referrerId, friendId);
    await settleReferral(friendId, 'waiting', 'new', friend.createdAt);
    return new AppError('NOT_FOUND');
  }
  return null;
}

/** A join's reward as App Config sets it now (none: the referral is only settled), for its operation. */
async function joinReward(friendId: Types.ObjectId, referrerId: Types.ObjectId, isPremium: boolean, at: Date) {
  const config = await getAppConfig();
  const coin = config.referrerCoin && config.referrerCoinAmount > 0 ? config.referrerCoin : null;
  const symbol = coin ? ((await findCoin(coin, { symbol: 1 }))?.symbol ?? '') : '';
  const amount = coin ? rewardFor({ isPremium }, config) : 0n;
  return { friendId, referrerId, from: 'new' as const, at, event: 'friend-joined' as const, coin, amount, symbol };
}

/**
 * A registration with a code (users.service.ts): the reward's operation recorded before the friend is written; the function
 * returned finishes it once they are, and says whether the invite counted and the referrer was credited.
 */
async function joinReferral(friendId: Types.ObjectId, referrerId: Types.ObjectId, isPremium: boolean, at: Date) {
  const reward = await joinReward(friendId, referrerId, isPremium, at);
  const finishJoin = await recordJoin(reward);
  return async (): Promise<ReferralOutcome> => {
    // a frozen or banned referrer's reward is owed as its operation, and paid once they are active
    const { held } = await finishJoin();
    const state = await referralStateOf(friendId);
    return { counted: !!state && state !== 'over-limit', credited: state === 'rewarded' && !held && reward.amount > 0n };
  };
}

/** When this process started: what an older version's instances recorded is older than that. */
const startedAt = Date.now();

/**
 * Start-up, once: newcomers an older version registered with a code and left 'pending' are finished by the same operation a
 * join records now, under the same key. It waits until this process has run for the sweep's grace, so the credit operations
 * that version recorded (under the reason's kind) were finished, or refused and removed, by the engine's sweep first; a
 * referral whose credit that version finished is settled rewarded here.
 */
export async function finishReferralsOfOlderVersion(graceMs: number): Promise<void> {
  if (Date.now() - startedAt < graceMs) return;
  await migrateOnce('referral-pending', async () => {
    for (const friend of await referralsOfOlderVersion()) {
      if (!friend.referrer) continue;
      const at = friend.createdAt ?? new Date();
      const paid = await payReferralReward(await joinReward(friend._id, friend.referrer, !!friend.isPremium, at));
      if (!paid.rewarded && !paid.held) await settleReferral(friend._id, 'rewarded', 'new', at);
    }
    return null;
  });
}

type Config = Awaited<ReturnType<typeof getAppConfig>>;
interface Qualification {
  doneMissions?: number | null;
  activeDays?: number | null;
  premiumRewardPercent?: number | null;
}
const qualificationOf = (config: Config): Qualification => config.toObject().referralQualification ?? {};

function mustQualify(config: Config): boolean {
  const rule = qualificationOf(config);
  return (rule.doneMissions ?? 0) > 0 || (rule.activeDays ?? 0) > 0;
}

/** The referrer's reward for this friend: the App Config amount, or its Premium share for a Premium friend. Exact, in micro-units. */
function rewardFor(friend: { isPremium?: boolean | null }, config: Config): bigint {
  const base = BigInt(config.referrerCoinAmount as number);
  const percent = BigInt(friend.isPremium ? (qualificationOf(config).premiumRewardPercent ?? 100) : 100);
  return (base * percent) / 100n;
}

/**
 * Rewards the referrer once for this friend, from the referral's state `from` (see referrals.kinds.ts); with no reward in
 * App Config the referral is settled rewarded and the referrer told, nothing credited.
 */
async function rewardReferrer(
  friend: { _id: Types.ObjectId; referrer: Types.ObjectId; isPremium?: boolean | null },
  config: Config,
  from: 'joined' | 'waiting',
  at: Date,
) {
  const event = 'friend-qualified';
  if (!config.referrerCoin || !(config.referrerCoinAmount > 0)) {
    const rewarded = await settleReferral(friend._id, 'rewarded', from, at);
    if (rewarded) await notifyReferrer(event, friend.referrer, friend._id);
    return { rewarded, credited: false };
  }
  const coin = await findCoin(config.referrerCoin, { symbol: 1 });
  return payReferralReward({
    friendId: friend._id,
    referrerId: friend.referrer,
    from,
    at,
    event,
    coin: config.referrerCoin,
    amount: rewardFor(friend, config),
    symbol: coin?.symbol ?? '',
  });
}

/**
 * Has this friend qualified by App Config's rule: this many missions done, or still playing this many days after joining
 * (seen on or after that day)? With both set, either is enough.
 */
function qualifies(friend: { doneMissionsCount?: number; createdAt?: Date; lastSeenAt?: Date }, config: Config): boolean {
  const rule = qualificationOf(config);
  const missions = rule.doneMissions ?? 0;
  const days = rule.activeDays ?? 0;
  if (missions > 0 && (friend.doneMissionsCount ?? 0) >= missions) return true;
  if (days > 0 && friend.createdAt && friend.lastSeenAt && friend.lastSeenAt.getTime() - friend.createdAt.getTime() >= days * 86_400_000)
    return true;
  return !mustQualify(config);
}

/**
 * The sweep's qualification pass: friends counted and waiting ('joined') who now meet the rule earn their referrer the reward,
 * once (its `referral-reward` operation), and the referrer is told; a held referrer's is owed until they are active. Returns how
 * many were rewarded.
 */
export async function qualifyReferrals(limit = 500, now = new Date()): Promise<number> {
  const config = await getAppConfig();
  let rewardedCount = 0;
  let afterId: Types.ObjectId | null = null;
  const risks = new Map<string, boolean>();
  for (let page = 0; page < 20; page++) {
    const waiting = await referralsToQualify(limit, afterId);
    for (const friend of waiting) {
      if (!friend.referrer || !qualifies(friend, config)) continue;
      // qualified, but the referrer or the friend is at review or high risk: the reward waits for an operator's clearance
      if (await riskHolds([friend.referrer, friend._id], now, risks)) {
        await settleReferral(friend._id, 'waiting', 'joined', now);
        continue;
      }
      // a frozen or banned referrer's reward is owed as its operation, and paid once they are active
      if ((await rewardReferrer({ ...friend, referrer: friend.referrer }, config, 'joined', now)).rewarded) rewardedCount++;
    }
    if (waiting.length < limit) break;
    afterId = waiting[waiting.length - 1]!._id;
  }
  // and the rewards that waited on risk, now that scores and clearances may have moved
  return rewardedCount + (await releaseWaitingReferrals(now, null, limit, risks));
}

/**
 * Pays the referral rewards that wait on risk ('waiting') whose referrer and friend no longer hold them (cleared by an operator,
 * or back to low), all of them or those of one player: each its `referral-reward` operation (referrals.kinds.ts), which settles
 * it 'rewarded' and credits it once, a crash anywhere finished by the engine's sweep. A frozen or banned referrer's reward is
 * owed until they are active. Returns how many were paid.
 */
export async function releaseWaitingReferrals(
  now = new Date(),
  playerId: Id | null = null,
  limit = 500,
  risks = new Map<string, boolean>(),
): Promise<number> {
  const config = await getAppConfig();
  let paid = 0;
  let afterId: Types.ObjectId | null = null;
  for (let page = 0; page < 20; page++) {
    const waiting = await referralsWaiting(limit, afterId, playerId);
    for (const friend of waiting) {
      if (!friend.referrer || (await riskHolds([friend.referrer, friend._id], now, risks))) continue;
      if ((await rewardReferrer({ ...friend, referrer: friend.referrer }, config, 'waiting', now)).rewarded) paid++;
    }
    if (waiting.length < limit) break;
    afterId = waiting[waiting.length - 1]!._id;
  }
  return paid;
}

function inviteLinks(botUsername: string, miniAppName: string, code: string, referrerMessage: string) {
  const bot = botUsername.replace(/^@/, '');
  const inviteLink = miniAppLink(botUsername, miniAppName, code);
  const text = referrerMessage.trim();
  const shareUrl = `https://t.me/share/url?url=${encodeURIComponent(inviteLink)}${text ? `&text=${encodeURIComponent(text)}` : ''}`;
  return { inviteLink, botLink: `https://t.me/${bot}?start=${code}`, shareUrl, shareText: text };
}

/** The message an invite carries, in the sharer's language (the Persian one when written, else the English). */
function referrerMessageFor(
  config: { referrerMessage: string; fa?: { referrerMessage?: string | null } | null },
  language: string | undefined,
) {
  return textFor(language)(config.referrerMessage, config.fa?.referrerMessage);
}

/** What the Invite a friend screen shows. */
export async function referralSummary(player: UserDocument) {
  const config = await getAppConfig();
  if (!config.botUsername.trim()) throw new AppError('NOT_CONFIGURED');
  const coin = config.referrerCoin && config.referrerCoinAmount > 0 ? await findCoin(config.referrerCoin, { symbol: 1 }) : null;
  const [friendsCount, qualifiedCount] = await Promise.all([countFriendsOf(player._id), countQualifiedFriends(player._id)]);
  const rule = qualificationOf(config);
  return {
    code: player.referralCode,
    ...inviteLinks(config.botUsername.trim(), config.miniAppName.trim(), player.referralCode, referrerMessageFor(config, player.language)),
    /** Friends counted toward the invite limit (each one rewarded). */
    invitedCount: player.referrersCount,
    inviteLimit: player.inviteLimit,
    /** Every friend who joined with the link, including those beyond the limit. */
    friendsCount,
    /** Friends who earned the reward (qualified), apart from those who only joined. */
    qualifiedCount,
    /** What a friend must do to qualify (0: nothing), and a Premium friend's share of the reward in percent. */
    qualification: {
      doneMissions: rule.doneMissions ?? 0,
      activeDays: rule.activeDays ?? 0,
      premiumRewardPercent: rule.premiumRewardPercent ?? 100,
    },
    reward: coin ? { amount: fromMicros(config.referrerCoinAmount as number), symbol: coin.symbol } : null,
  };
}

/** The button under a shared invite, in the sharer's language. */
const OPEN_BUTTON = { en: 'Open the app', fa: 'باز کردن برنامه' } as const;
/** Prepared invites still valid, by player and content: a second share reuses the first instead of calling Telegram again. */
const preparedInvites = new Map<string, { id: string; expiresAt: number }>();
const PREPARED_KEPT = 10_000;
/** A prepared message is reused until this long before Telegram forgets it, so a share never opens on an expired one. */
const REUSE_MARGIN_MS = 5 * 60_000;

/**
 * The invite as a message Telegram keeps for the player to share (Bot API savePreparedInlineMessage, Telegram 8.0): the
 * referrer message, the link, and a button that opens the app with the player's code. The app then asks Telegram to let
 * the player pick chats (web_app_send_prepared_message). Without a bot token this is NOT_CONFIGURED; Telegram refusing
 * is UNAVAILABLE, and the app falls back to the share link.
 */
export async function prepareInviteMessage(player: UserDocument, { env, now, logger }: { env: Env; now: Date; logger?: Logger }) {
  const config = await getAppConfig();
  const token = await resolveBotToken(env);
  if (!token || !config.botUsername.trim()) throw new AppError('NOT_CONFIGURED');
  const { inviteLink, shareText } = inviteLinks(
    config.botUsername.trim(),
    config.miniAppName.trim(),
    player.referralCode,
    referrerMessageFor(config, player.language),
  );
  const language = player.language === 'fa' ? 'fa' : 'en';
  const text = shareText ? `${shareText}\n${inviteLink}` : inviteLink;
  const key = `${player._id}:${createHash('sha256').update(`${token}\n${language}\n${text}`).digest('base64url')}`;
  const kept = preparedInvites.get(key);
  if (kept && kept.expiresAt - REUSE_MARGIN_MS > now.getTime()) return { id: kept.id };
  let prepared: { id: string; expiration_date: number };
  try {
    prepared = await interactiveApi({ apiRoot: env.TELEGRAM_API_ROOT, token }).savePreparedInlineMessage(
      player.telegramId,
      {
        type: 'article',
        id: randomBytes(8).toString('hex'),
        title: (shareText || inviteLink).slice(0, 256),
        description: inviteLink,
        input_message_content: { message_text: text },
        reply_markup: { inline_keyboard: [[{ text: OPEN_BUTTON[language], url: inviteLink }]] },
      },
      { allow_user_chats: true, allow_group_chats: true, allow_channel_chats: true },
    );
  } catch (error) {
    logger?.warn({ err: toBotApiError(error, 'savePreparedInlineMessage') }, 'invite message not prepared');
    throw new AppError('UNAVAILABLE');
  }
  if (preparedInvites.size >= PREPARED_KEPT) preparedInvites.delete(preparedInvites.keys().next().value!);
  preparedInvites.set(key, { id: prepared.id, expiresAt: prepared.expiration_date * 1000 });
  return { id: prepared.id };
}

/** The friends a player invited, newest first; never their Telegram ids. */
export async function friendsOf(player: UserDocument, page: number, pageSize: number) {
  const [rows, total] = await Promise.all([friendsPageOf(player._id, (page - 1) * pageSize, pageSize), countFriendsOf(player._id)]);
  return {
    items: rows.map((friend) => ({ name: friend.name, username: friend.username, joinedAt: friend.createdAt })),
    total,
    page,
    pageSize,
  };
}

registerReferralJoin(joinReferral);
registerJoinDecision(decideJoin);
onRiskCleared((playerId, now) => releaseWaitingReferrals(now, playerId));
