import { createHmac } from 'node:crypto';
import { Bot, InlineKeyboard, type CommandContext, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Language } from '@gift/shared';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { toBotApiError } from '../../lib/telegramBot';
import { getAppConfig, miniAppLink } from '../config/config.service';
import { isOperatorStart, linkAlertChat } from '../alerts/alerts.service';
import { REFERRAL_CODE_PATTERN } from '../users/players.service';
import { languageFor, registerFromBotStart } from '../users/users.service';
import { answerForPreCheckout, recordStarPayment } from '../shop/shop.service';

const BOT_TEXTS: Record<
  Language,
  {
    welcome: string;
    open: string;
    help: string;
    menuButton: string;
    commands: { start: string; help: string };
  }
> = {
  en: {
    welcome: 'Welcome! Tap the button below to open the app, complete missions and earn coins.',
    open: 'Open the app',
    help: [
      'Gift Rewards: complete missions, mine and stake coins, invite friends and withdraw to your TON wallet.',
      '',
      '/start: open the app',
      '/help: what this bot does',
      '',
      'The bot also tells you when a friend joins with your link, a mission is reviewed, a withdrawal is paid or rejected, a stake unlocks and mining is ready.',
    ].join('\n'),
    menuButton: 'Open',
    commands: { start: 'Open the app', help: 'What this bot does' },
  },
  fa: {
    welcome: 'خوش آمدید! برای باز کردن برنامه، انجام ماموریت‌ها و کسب سکه روی دکمه زیر بزنید.',
    open: 'باز کردن برنامه',
    help: [
      'Gift Rewards: ماموریت‌ها را انجام دهید، سکه استخراج و استیک کنید، دوستان خود را دعوت کنید و به کیف پول TON خود برداشت کنید.',
      '',
      '/start: باز کردن برنامه',
      '/help: این ربات چه می‌کند',
      '',
      'ربات به شما خبر می‌دهد وقتی دوستی با لینک شما عضو شود، ماموریتی بررسی شود، برداشتی پرداخت یا رد شود، استیکی آزاد شود و استخراج آماده باشد.',
    ].join('\n'),
    menuButton: 'باز کردن',
    commands: { start: 'باز کردن برنامه', help: 'این ربات چه می‌کند' },
  },
};

/**
 * The secret Telegram sends back in the X-Telegram-Bot-Api-Secret-Token header of every webhook
 * call. Derived from the token under the server secret: the same on every instance, and no one who
 * sees it (a log, a proxy) can get the token back from it.
 */
export function webhookSecretToken(botToken: string, jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update(`telegram-webhook:${botToken}`).digest('hex');
}

/** The mini app's t.me link (the bot's own username when App Config names none). */
export async function openAppUrl(botUsername: string | undefined, code?: string): Promise<string | undefined> {
  const config = await getAppConfig();
  const username = config.botUsername.trim() || botUsername;
  return username ? miniAppLink(username, config.miniAppName, code) : undefined;
}

/**
 * `/start [code]`: registers a newcomer (with the referrer of the code), records that the bot may
 * message the player, and answers with a button opening the mini app. A t.me link button is used
 * because a web_app button cannot carry the code as a start parameter.
 */
async function answerStart(ctx: CommandContext<Context>, env: Env, logger: Logger, clock: () => Date): Promise<void> {
  const from = ctx.from!;
  // an operator linking this chat to their console account for alerts: not a player's start
  if (isOperatorStart(ctx.match)) {
    await ctx.reply(await linkAlertChat(ctx.match, ctx.chat.id, languageFor(from.language_code), clock()));
    return;
  }
  const code = REFERRAL_CODE_PATTERN.test(ctx.match) ? ctx.match : undefined;
  const { user } = await registerFromBotStart(from, code, clock());
  const words = BOT_TEXTS[user.language === 'fa' ? 'fa' : 'en'];
  const url = await openAppUrl(ctx.me.username, code);
  await ctx.reply(words.welcome, url ? { reply_markup: new InlineKeyboard().url(words.open, url) } : {});
  // the default menu button speaks English; this chat's speaks the player's language
  if (env.PUBLIC_URL) {
    await ctx.api
      .setChatMenuButton({ chat_id: ctx.chat.id, menu_button: menuButton(words.menuButton, env.PUBLIC_URL) })
      .catch((error) => logger.warn({ err: toBotApiError(error, 'setChatMenuButton') }, 'chat menu button not set'));
  }
}

function menuButton(text: string, publicUrl: string) {
  return { type: 'web_app' as const, text, web_app: { url: `${publicUrl}/` } };
}

async function answerHelp(ctx: CommandContext<Context>): Promise<void> {
  const words = BOT_TEXTS[languageFor(ctx.from?.language_code)];
  const url = await openAppUrl(ctx.me.username);
  await ctx.reply(words.help, url ? { reply_markup: new InlineKeyboard().url(words.open, url) } : {});
}

/** Accepts the payment only for a pending purchase of this player, at its price in Stars, of an item on sale, to a player in good standing. */
async function answerPreCheckout(ctx: Context): Promise<void> {
  const query = ctx.preCheckoutQuery!;
  const answer = await answerForPreCheckout(query, languageFor(query.from.language_code));
  if (answer.ok) await ctx.answerPreCheckoutQuery(true);
  else await ctx.answerPreCheckoutQuery(false, { error_message: answer.errorMessage });
}

export interface CreateBotOptions {
  env: Env;
  logger: Logger;
  /** What getMe would answer, when already known (tests): saves the call. */
  botInfo?: UserFromGetMe;
  clock?: () => Date;
}

/** The bot: /start and /help in private chats; everything else is left unanswered. */
export function createBot(token: string, { env, logger, botInfo, clock = () => new Date() }: CreateBotOptions): Bot {
  // grammY's default request timeout: a long poll holds its getUpdates call open for 30 seconds
  const bot = new Bot(token, { botInfo, client: { apiRoot: env.TELEGRAM_API_ROOT.replace(/\/$/, '') } });
  const privateChats = bot.chatType('private');
  privateChats.command('start', (ctx) => answerStart(ctx, env, logger, clock));
  privateChats.command('help', answerHelp);
  // the Stars shop: Telegram asks before it takes the Stars, then reports the payment (a repeat grants nothing more)
  bot.on('pre_checkout_query', answerPreCheckout);
  bot.on('message:successful_payment', (ctx) => recordStarPayment(ctx.message.successful_payment));
  bot.catch(({ error, ctx }) => {
    logger.warn({ err: toBotApiError(error, 'reply'), updateId: ctx.update.update_id }, 'bot update not answered');
    // long polling: stop before the next poll tells Telegram this update was handled (BotRuntime polls again from it)
    if (paymentUnrecorded(error, ctx)) throw new PaymentNotRecorded(ctx.update.update_id, error);
  });
  return bot;
}

/**
 * A Stars payment the server could not record (the database away; not the app's refusal of it). Telegram sends
 * successful_payment once, and again only while the webhook answers an error or the long poll has not asked past it, so
 * such an update must not be acknowledged: recording it again later is harmless, it is keyed by its charge.
 */
export const paymentUnrecorded = (error: unknown, ctx: Context): boolean =>
  !!ctx.message?.successful_payment && !(error instanceof AppError);

/** Thrown out of the long poll by a payment not recorded, before Telegram is told it was handled. */
export class PaymentNotRecorded extends Error {
  constructor(
    readonly updateId: number,
    cause: unknown,
  ) {
    super(`successful_payment of update ${updateId} not recorded`, { cause });
    this.name = 'PaymentNotRecorded';
  }
}

/** The commands Telegram lists in the chat's menu, in English and Persian. */
export async function registerCommands(bot: Bot): Promise<void> {
  const commands = (language: Language) => [
    { command: 'start', description: BOT_TEXTS[language].commands.start },
    { command: 'help', description: BOT_TEXTS[language].commands.help },
  ];
  await bot.api.setMyCommands(commands('en'));
  await bot.api.setMyCommands(commands('fa'), { language_code: 'fa' });
}

/** The chat's menu button opens the mini app served at the public URL. */
export async function registerMenuButton(bot: Bot, publicUrl: string): Promise<void> {
  await bot.api.setChatMenuButton({ menu_button: menuButton(BOT_TEXTS.en.menuButton, publicUrl) });
}
