import type { Types } from 'mongoose';
import { fromMicros } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { findGiftCoin } from '../coins/giftCoins.service';
import { getAppConfig, miniAppLink } from '../config/config.service';
import { entryKeys, postEntry } from '../ledger/ledger.service';
import { notify } from '../notifications/notifications.service';
import { faultPoint } from '../../lib/faults';
import {
  countFriendsOf,
  countInvite,
  friendsPageOf,
  playerNames,
  referralToFinish,
  settleReferral,
  unfinishedReferrals,
} from '../users/players.service';
import type { ReferralOutcome, UserDocument } from '../users/players.service';
import { registerReferralFinisher } from '../users/users.service';

/**
 * Finishes a newcomer's referral from the records alone, the same whichever caller runs it (the
 * registration, the recovery sweep after a crash), any number of times: counts the invite once while the
 * referrer is below their invite limit, credits the referral reward under `referral:<friendId>`, tells the
 * referrer, and settles it. Beyond the limit the friend stays linked but earns nothing.
 */
async function finishReferral(friendId: Types.ObjectId): Promise<ReferralOutcome> {
  const friend = await referralToFinish(friendId);
  if (!friend?.referrer) return { counted: false, credited: false };
  const referrerId = friend.referrer;
  const counted = await countInvite(referrerId, friendId);
  await faultPoint('referral:after-count');
  if (!counted) {
    await settleReferral(friendId, 'over-limit');
    return { counted: false, credited: false };
  }
  const config = await getAppConfig();
  let credited = false;
  let reward: { amount: string; symbol: string } | undefined;
  if (config.referrerCoin && config.referrerCoinAmount > 0) {
    const posted = await postEntry({
      userId: referrerId,
      coinId: config.referrerCoin,
      amount: BigInt(config.referrerCoinAmount as number),
      reason: 'referral',
      refType: 'User',
      refId: String(friendId),
      idempotencyKey: entryKeys.referralReward(friendId),
    });
    credited = posted.applied;
    await faultPoint('referral:after-credit');
    const coin = await findGiftCoin(config.referrerCoin, { symbol: 1 });
    if (coin) reward = { amount: fromMicros(config.referrerCoinAmount as number), symbol: coin.symbol };
  }
  await notifyFriendJoined(referrerId, friendId, reward);
  await settleReferral(friendId, 'rewarded');
  return { counted: true, credited };
}

/** Finishes referrals a crash left unfinished, of newcomers registered before `olderThanMs` ago; returns how many. */
export async function recoverReferrals(olderThanMs = 30_000): Promise<number> {
  const unfinished = await unfinishedReferrals(new Date(Date.now() - olderThanMs), 500);
  for (const { _id } of unfinished) await finishReferral(_id);
  return unfinished.length;
}

/** Tells the referrer who joined with their link, and what it earned them. */
async function notifyFriendJoined(referrerId: Types.ObjectId, friendId: Types.ObjectId, reward?: { amount: string; symbol: string }) {
  const friend = await playerNames(friendId);
  const name = friend?.name || (friend?.username ? `@${friend.username}` : 'A friend');
  await notify(referrerId, `friend-joined:${friendId}`, 'friend-joined', { friend: name, ...reward });
}

function inviteLinks(botUsername: string, miniAppName: string, code: string, referrerMessage: string) {
  const bot = botUsername.replace(/^@/, '');
  const inviteLink = miniAppLink(botUsername, miniAppName, code);
  const text = referrerMessage.trim();
  const shareUrl = `https://t.me/share/url?url=${encodeURIComponent(inviteLink)}${text ? `&text=${encodeURIComponent(text)}` : ''}`;
  return { inviteLink, botLink: `https://t.me/${bot}?start=${code}`, shareUrl, shareText: text };
}

/** What the Invite a friend screen shows. */
export async function referralSummary(player: UserDocument) {
  const config = await getAppConfig();
  if (!config.botUsername.trim()) throw new AppError('NOT_CONFIGURED');
  const coin = config.referrerCoin && config.referrerCoinAmount > 0 ? await findGiftCoin(config.referrerCoin, { symbol: 1 }) : null;
  const friendsCount = await countFriendsOf(player._id);
  return {
    code: player.referralCode,
    ...inviteLinks(config.botUsername.trim(), config.miniAppName.trim(), player.referralCode, config.referrerMessage),
    /** Friends counted toward the invite limit (each one rewarded). */
    invitedCount: player.referrersCount,
    inviteLimit: player.inviteLimit,
    /** Every friend who joined with the link, including those beyond the limit. */
    friendsCount,
    reward: coin ? { amount: fromMicros(config.referrerCoinAmount as number), symbol: coin.symbol } : null,
  };
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

registerReferralFinisher(finishReferral);
