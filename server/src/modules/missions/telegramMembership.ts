import { telegramMissionChat } from '@gift/shared';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
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
  if ('problem' in target || !token) throw new AppError('NOT_CONFIGURED');
  const chatId = target.chat;
  let member: boolean;
  try {
    member = await isChatMember({ apiRoot: env.TELEGRAM_API_ROOT, token }, chatId, telegramId);
  } catch (error) {
    if (!(error instanceof BotApiError)) throw error;
    // Telegram answers these for someone who never joined the chat
    if (/user not found|member not found|PARTICIPANT_ID_INVALID/i.test(error.description)) throw new AppError('NOT_JOINED');
    if (error.status === 429) throw new AppError('RATE_LIMITED');
    // chat not found, bot not an admin there, token refused: the mission or the bot is set up wrong
    if (error.status >= 400 && error.status < 500) throw new AppError('NOT_CONFIGURED');
    // Telegram unreachable: a retryable failure, logged by the door
    throw new AppError('INTERNAL');
  }
  if (!member) throw new AppError('NOT_JOINED');
}
