import { telegramMissionChat } from '@gift/shared';
import type { Env } from '../../env';
import { AppError, telegramCheckFailed } from '../../lib/errors';
import { BotApiError, isChatMember } from '../../lib/telegramBot';
import { resolveBotToken } from '../config/config.service';

/**
 * Asks Telegram whether the player is in the mission's channel or group, found by the same rule the console saved it by
 * (shared `telegramMissionChat`); never credits when it cannot tell.
 */
export async function requireMembership(
  env: Env,
  mission: { link?: string | null; telegramChatId?: string | null },
  telegramId: number,
): Promise<void> {
  const target = telegramMissionChat(mission.link, mission.telegramChatId);
  const token = await resolveBotToken(env);
  if ('problem' in target) throw telegramCheckFailed(new Error(`the mission's chat is not set up: ${target.problem}`));
  if (!token) throw telegramCheckFailed(new Error('no bot token is configured'));
  const chatId = target.chat;
  let member: boolean;
  try {
    member = await isChatMember({ apiRoot: env.TELEGRAM_API_ROOT, token }, chatId, telegramId);
  } catch (error) {
    if (!(error instanceof BotApiError)) throw error;
    // Telegram answers these for someone who never joined the chat
    if (/user not found|member not found|PARTICIPANT_ID_INVALID/i.test(error.description)) throw new AppError('NOT_JOINED');
    if (error.status === 429) throw new AppError('RATE_LIMITED');
    // chat not found, bot not an admin there, token refused (the mission or the bot is set up wrong), or Telegram
    // unreachable: the player may try again later; the door logs Telegram's answer for the operators
    throw telegramCheckFailed(error);
  }
  if (!member) throw new AppError('NOT_JOINED');
}
