import type { Types } from 'mongoose';
import type { Env } from '../../env';
import type { NewRecord } from '../../db/schemaKit';
import { AppConfigModel, onAppConfigWrite } from './appConfig.model';
import { shortLived } from '../../db/shortLived';
import { registerCoinUse } from '../coins/giftCoinDeletion.service';
import { upsertWithRetry } from '../../db/mongoErrors';

/** The one App Config record, created with defaults the first time it is read. */
/** A t.me link that opens the mini app (the bot's main one when no name is set), carrying the code as `startapp`. */
export function miniAppLink(botUsername: string, miniAppName: string, code?: string): string {
  const bot = botUsername.trim().replace(/^@/, '');
  const app = miniAppName.trim().replace(/^\/+|\/+$/g, '');
  const start = code ? `startapp=${code}` : 'startapp';
  return app ? `https://t.me/${bot}/${app}${code ? `?${start}` : ''}` : `https://t.me/${bot}?${start}`;
}

/** The link that opens the app in Telegram, for a sign-in page outside it; null until App Config names the bot. */
export async function openInTelegramLink(): Promise<string | null> {
  const config = await getAppConfig();
  const bot = config.botUsername.trim();
  return bot ? miniAppLink(bot, config.miniAppName) : null;
}

export async function getAppConfig() {
  // read first: the upsert would touch updatedAt on every read
  const existing = await AppConfigModel.findOne({ key: 'app' });
  if (existing) return existing;
  // two first reads at once on MongoDB: the unique key refuses the second insert, whose retry reads the first's
  const config = await upsertWithRetry(() =>
    AppConfigModel.findOneAndUpdate(
      { key: 'app' },
      { $setOnInsert: { key: 'app' } },
      { upsert: true, returnDocument: 'after', setDefaultsOnInsert: true },
    ),
  );
  return config;
}

/** How long a hot read's copy of the App Config lives in an instance that did not write it. */
const CONFIG_LIFETIME_MS = 3_000;
const appConfigCopy = shortLived(getAppConfig, CONFIG_LIFETIME_MS);
onAppConfigWrite(appConfigCopy.forget);

/**
 * The App Config as the hot reads see it (home, the day of daily missions): a copy kept 3 s, forgotten at once after a write in
 * this instance, so another instance sees an operator's change at most 3 s late. Shared by every caller: read it, never change
 * it. Money decisions (an amount, a limit, a switch) read `getAppConfig()` instead.
 */
export const recentAppConfig = appConfigCopy.get;

/** What the console's App Config needs of the environment: whether it sets the bot token, and where Telegram is. */
let botSettings: Pick<Env, 'TELEGRAM_BOT_TOKEN' | 'TELEGRAM_API_ROOT'> | null = null;

/** Set by createApp: the App Config's bot fields say where the running token comes from, and check a new one. */
export function configureBotSettings(env: Env): void {
  botSettings = { TELEGRAM_BOT_TOKEN: env.TELEGRAM_BOT_TOKEN, TELEGRAM_API_ROOT: env.TELEGRAM_API_ROOT };
}

/** Where the running bot's token comes from: the environment (which wins), App Config, or nowhere yet. */
export function botTokenSource(savedInAppConfig: boolean): 'environment' | 'appConfig' | null {
  if (botSettings?.TELEGRAM_BOT_TOKEN) return 'environment';
  return savedInAppConfig ? 'appConfig' : null;
}

export const telegramApiRoot = () => botSettings?.TELEGRAM_API_ROOT ?? 'https://api.telegram.org';

/** TELEGRAM_BOT_TOKEN wins; otherwise the token saved in App Config; undefined when neither is set. */
export async function resolveBotToken(env: Env): Promise<string | undefined> {
  if (env.TELEGRAM_BOT_TOKEN) return env.TELEGRAM_BOT_TOKEN;
  const config = await AppConfigModel.findOne({ key: 'app' }).select('+botToken').lean();
  return config?.botToken || undefined;
}

/** How many App Configs pay in a coin, as referrer, mining or streak milestone coin (0 or 1: there is one config). */
function countConfigUsesOf(coinId: string): Promise<number> {
  return AppConfigModel.countDocuments({ $or: [{ referrerCoin: coinId }, { miningCoin: coinId }, { 'streakMilestones.coin': coinId }] });
}

registerCoinUse({ order: 4, count: countConfigUsesOf, describe: () => 'the App Config (referrer, mining or streak milestone coin)' });

/** A streak milestone as stored: the reward in micro-units. */
interface StreakMilestoneRecord {
  days: number;
  coin: Types.ObjectId;
  amount: number;
}

/** Sets App Config fields without touching the others (the treasury's pause switch, the demo seed). */
export async function setAppConfigFields(
  fields: Omit<NewRecord<typeof AppConfigModel>, 'streakMilestones'> & { streakMilestones?: StreakMilestoneRecord[] },
): Promise<void> {
  await getAppConfig();
  await AppConfigModel.updateOne({ key: 'app' }, { $set: fields });
}
