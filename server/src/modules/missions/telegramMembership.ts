import { telegramBoostTarget, telegramMissionChat } from '@gift/shared';
import type { Env } from '../../env';
import { AppError, telegramCheckFailed } from '../../lib/errors';
import { BotApiError, boostsChat, emojiStatusOf, isChatMember, type BotApi } from '../../lib/telegramBot';
import { resolveBotToken } from '../config/config.service';

/**
 * Asks the Bot API one question about a player, the same way for every Telegram-verified mission: a mission set up wrong, no
 * bot token, a chat Telegram does not know, a bot without the rights there, or Telegram unreachable all say it could not be
 * checked (503, try again later), never that it was done. `answer` is false when Telegram said no; `absent` matches Telegram's
 * words for someone who is not in the chat at all (also a no).
 */
async function askTelegramAbout(
  env: Env,
  target: { chat: string } | { problem: string },
  ask: (bot: BotApi, chat: string) => Promise<boolean>,
  no: AppError['code'],
  absent = /user not found|member not found|PARTICIPANT_ID_INVALID/i,
): Promise<void> {
  const token = await resolveBotToken(env);
  if ('problem' in target) throw telegramCheckFailed(new Error(`the mission's chat is not set up: ${target.problem}`));
  if (!token) throw telegramCheckFailed(new Error('no bot token is configured'));
  let yes: boolean;
  try {
    yes = await ask({ apiRoot: env.TELEGRAM_API_ROOT, token }, target.chat);
  } catch (error) {
    if (!(error instanceof BotApiError)) throw error;
    if (absent.test(error.description)) throw new AppError(no);
    if (error.status === 429) throw new AppError('RATE_LIMITED');
    // chat not found, bot not an admin there, token refused (the mission or the bot is set up wrong), or Telegram
    // unreachable: the player may try again later; the door logs Telegram's answer for the operators
    throw telegramCheckFailed(error);
  }
  if (!yes) throw new AppError(no);
}

/**
 * Asks Telegram whether the player is in the mission's channel or group, found by the same rule the console saved it by
 * (shared `telegramMissionChat`); never credits when it cannot tell.
 */
export function requireMembership(
  env: Env,
  mission: { link?: string | null; telegramChatId?: string | null },
  telegramId: number,
): Promise<void> {
  const target = telegramMissionChat(mission.link, mission.telegramChatId);
  return askTelegramAbout(env, target, (bot, chat) => isChatMember(bot, chat, telegramId), 'NOT_JOINED');
}

/** Asks Telegram (getUserChatBoosts) whether the player boosts the mission's channel now: at least one boost not expired. */
export function requireBoost(
  env: Env,
  mission: { link?: string | null; telegramChatId?: string | null },
  telegramId: number,
  now: Date,
): Promise<void> {
  const target = telegramBoostTarget(mission.link, mission.telegramChatId);
  return askTelegramAbout(env, target, (bot, chat) => boostsChat(bot, chat, telegramId, now), 'NOT_BOOSTED');
}

/**
 * Asks Telegram (getChat of the player) whether their emoji status is the mission's custom emoji. The bot sees a player's
 * chat once they started it; Telegram's "chat not found" for one who never did says it could not be checked.
 */
export function requireEmojiStatus(env: Env, mission: { emojiId?: string | null }, telegramId: number): Promise<void> {
  const emojiId = mission.emojiId?.trim() ?? '';
  const target = emojiId ? { chat: String(telegramId) } : { problem: 'no custom emoji id' };
  return askTelegramAbout(env, target, async (bot) => (await emojiStatusOf(bot, telegramId)) === emojiId, 'EMOJI_STATUS_NOT_SET');
}
