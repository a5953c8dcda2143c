import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import { sendMessage } from '../../lib/telegramBot';
import { getAppConfig, resolveBotToken } from '../config/config.service';
import { UserModel } from '../users/user.model';
import { miniAppLink, REFERRAL_CODE_PATTERN } from './referrals.service';

/** The part of a Telegram update the bot answers: a private text message. */
const updateSchema = z.looseObject({
  message: z
    .looseObject({
      chat: z.looseObject({ id: z.number(), type: z.string() }),
      from: z.looseObject({ id: z.number(), language_code: z.string().optional() }).optional(),
      text: z.string().optional(),
    })
    .optional(),
});

const WELCOME = {
  en: { text: 'Welcome! Tap the button below to open the app, complete missions and earn coins.', button: 'Open the app' },
  fa: { text: 'خوش آمدید! برای باز کردن برنامه، انجام مأموریت‌ها و کسب سکه روی دکمه زیر بزنید.', button: 'باز کردن برنامه' },
};

/**
 * Answers `/start [code]` in the bot's private chat with a button opening the mini app, the code
 * passed on as `startapp` so the referral is kept. A t.me link button is used because a web_app
 * button cannot carry a start parameter. Returns whether it answered.
 */
export async function handleBotUpdate(update: unknown, env: Env): Promise<boolean> {
  const parsed = updateSchema.safeParse(update);
  const message = parsed.success ? parsed.data.message : undefined;
  if (!message?.text || message.chat.type !== 'private') return false;
  const command = /^\/start(?:@\w+)?(?:\s+(\S+))?\s*$/.exec(message.text.trim());
  if (!command) return false;
  const [botToken, config] = await Promise.all([resolveBotToken(env), getAppConfig()]);
  if (!botToken || !config.botUsername.trim()) return false;

  const code = command[1] && REFERRAL_CODE_PATTERN.test(command[1]) ? command[1] : undefined;
  const words = message.from?.language_code?.toLowerCase().startsWith('fa') ? WELCOME.fa : WELCOME.en;
  // whoever started the bot can be messaged by it, e.g. for web sign-in codes
  if (message.from) await UserModel.updateOne({ telegramId: message.from.id }, { $set: { messagePermission: true } });
  await sendMessage({ apiRoot: env.TELEGRAM_API_ROOT, token: botToken }, message.chat.id, words.text, {
    reply_markup: { inline_keyboard: [[{ text: words.button, url: miniAppLink(config.botUsername, config.miniAppName, code) }]] },
  });
  return true;
}

/** The secret last part of the webhook path: a hash of the bot token, so only Telegram knows it. */
export function webhookSecret(botToken: string): string {
  return createHash('sha256').update(botToken).digest('hex');
}

/**
 * POST /telegram/webhook/:secret — register it with Telegram's setWebhook as
 * https://<host>/telegram/webhook/<sha256 hex of the bot token>. Always answers 200 to Telegram
 * once the path is right, so a failed reply is not retried forever.
 */
export function telegramWebhook(env: Env, logger?: Logger): RequestHandler {
  return async (req, res) => {
    const botToken = await resolveBotToken(env);
    const given = Buffer.from(String(req.params.secret ?? ''));
    const expected = Buffer.from(botToken ? webhookSecret(botToken) : '');
    if (!botToken || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.status(404).json({ message: 'Not found', code: 'NOT_FOUND' });
      return;
    }
    try {
      await handleBotUpdate(req.body, env);
    } catch (error) {
      logger?.warn({ err: error }, 'bot update not answered');
    }
    res.json({ ok: true });
  };
}
