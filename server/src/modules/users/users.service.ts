import { randomBytes } from 'node:crypto';
import { Types } from 'mongoose';
import { fromMicros, REMINDER_KINDS, type Language, type ReminderKind, type Theme } from '@gift/shared';
import type { TelegramLaunch } from '../../lib/telegramAuth';
import type { Id } from '../../db/ids';
import type { ConsoleRecord } from '../../db/schemaKit';
import { isDuplicateKey } from '../../db/mongoErrors';
import { coinNameFor, listCoins } from '../coins/giftCoins.service';
import { getAppConfig } from '../config/config.service';
import { balancesOf, figuresByCoin } from '../ledger/ledger.service';
import { allowsMessages, findReferrer, remindersOff, switchReminder, type ReferralOutcome } from './players.service';
import { statusReasonFor } from './playerStatus.service';
import { recordActiveDay } from './playerDays.service';
import { UserModel, type UserDocument } from './user.model';

/** The development demo player is no Telegram user: real Telegram ids are positive. */
const DEMO_TELEGRAM_ID = 0;

/** A refreshed launch within this long of the last one changes nothing worth a write. */
const LAST_SEEN_PRECISION_MS = 60_000;

/** 8 URL-safe characters from 48 random bits: fits Telegram's start parameter, unguessable in bulk. */
function newReferralCode(): string {
  return randomBytes(6).toString('base64url');
}

/** A referral code no player has yet (the test database does not enforce the unique index, so check). */
async function unusedReferralCode(): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const code = newReferralCode();
    if (!(await UserModel.exists({ referralCode: code }))) return code;
  }
  throw new Error('Could not draw an unused referral code');
}

/**
 * A newcomer's referral (the invite counted, the referrer rewarded and told): the referrals module registers it, so users
 * never imports referrals. `record` writes it, an operation of the money engine, before the newcomer is written, under the
 * id they are then written with; the function it returns finishes it once they are. A crash anywhere is finished (or, had
 * the newcomer never been written, refused) by the engine's sweep, so the newcomer carries no state saying it is owed.
 */
type ReferralJoin = (
  friendId: Types.ObjectId,
  referrerId: Types.ObjectId,
  isPremium: boolean,
  at: Date,
) => Promise<() => Promise<ReferralOutcome>>;
let referralJoin: ReferralJoin | null = null;

/** GET /api/admin/users: a player as the console lists them. */
export type PlayerRecord = ConsoleRecord<typeof UserModel, never, 'nameWords' | 'tokenVersion'>;

export function registerReferralJoin(join: ReferralJoin): void {
  referralJoin = join;
}

/**
 * Records a launch for the player's timeline (issue 34, item 6): the timeline module registers it, so users never imports
 * it. Called with the moment Telegram signed the launch, only on a launch that refreshes the player (see upsertFromTelegram).
 */
let launchRecorder: ((playerId: Types.ObjectId, at: Date) => Promise<void>) | null = null;

export function registerLaunchRecorder(record: (playerId: Types.ObjectId, at: Date) => Promise<void>): void {
  launchRecorder = record;
}

export function languageFor(languageCode: string | undefined): Language {
  return languageCode?.toLowerCase().startsWith('fa') ? 'fa' : 'en';
}

/** What every launch refreshes from Telegram's word about the player. */
function launchFields(launch: TelegramLaunch, now: Date) {
  const { user } = launch;
  const firstName = user.first_name.trim();
  const lastName = (user.last_name ?? '').trim();
  const username = user.username ?? '';
  return {
    firstName,
    lastName,
    name: [firstName, lastName].filter(Boolean).join(' '),
    username,
    usernameLower: username.toLowerCase(),
    languageCode: user.language_code ?? '',
    // Telegram sends allows_write_to_pm only when the player allowed it, and its absence does not say the allowance was
    // withdrawn (a launch signed before the player pressed /start or answered the app's write-access request lacks it): a
    // launch only ever grants; the bot's first refused message (403) clears it
    ...(user.allows_write_to_pm === true ? { messagePermission: true } : {}),
    isPremium: user.is_premium === true,
    photoUrl: user.photo_url ?? '',
    lastSeenAt: now,
  };
}

function isUpToDate(user: UserDocument, fields: ReturnType<typeof launchFields>, now: Date): boolean {
  const { lastSeenAt, ...rest } = fields;
  const same = (Object.keys(rest) as Array<keyof typeof rest>).every((key) => user.get(key) === rest[key]);
  return same && now.getTime() - user.lastSeenAt.getTime() < LAST_SEEN_PRECISION_MS;
}

export interface LaunchOutcome {
  user: UserDocument;
  /** This launch registered the player. */
  created: boolean;
  /** Set when this launch registered a player who arrived with a referrer's code. */
  referral?: ReferralOutcome;
}

/**
 * Registers the player on their first valid launch, or refreshes what Telegram says about them.
 * One conditional upsert on the Telegram id, so simultaneous first launches make one player.
 * The referrer is decided by the registering upsert itself: once, at first registration, never oneself.
 */
export async function upsertFromTelegram(launch: TelegramLaunch, now: Date, network = ''): Promise<LaunchOutcome> {
  const telegramId = launch.user.id;
  const fields = launchFields(launch, now);
  const existing = await UserModel.findOne({ telegramId });
  if (existing && isUpToDate(existing, fields, now)) return { user: existing, created: false };
  // the first launch of a day: the player is active on it (retention by join cohort)
  if (existing) await recordActiveDay(existing, now);

  const referrer = existing ? null : await findReferrer(launch.start_param, telegramId);
  // a newcomer with a code: their referral is recorded first, under the id they are written with
  const friendId = referrer ? new Types.ObjectId() : null;
  if (referrer && !referralJoin) throw new Error('the referrals module has not registered its referral join');
  const finishReferral = referrer ? await referralJoin!(friendId!, referrer, !!launch.user.is_premium, now) : null;
  const insertOnly = existing
    ? {}
    : {
        ...(friendId ? { _id: friendId } : {}),
        telegramId,
        referralCode: await unusedReferralCode(),
        referrer,
        language: languageFor(launch.user.language_code),
        inviteLimit: (await getAppConfig()).defaultInviteLimit,
        // the network of the first launch (hashed), for the risk score; a newcomer is assessed by the next risk sweep
        joinNetwork: network,
        riskDueAt: now,
        createdAt: now,
      };
  let result;
  for (let attempt = 0; ; attempt++) {
    try {
      result = await UserModel.findOneAndUpdate(
        { telegramId },
        { $set: { ...fields, updatedAt: now }, $setOnInsert: insertOnly },
        { upsert: true, returnDocument: 'after', includeResultMetadata: true, setDefaultsOnInsert: true, timestamps: false },
      );
      break;
    } catch (error) {
      // on real MongoDB a simultaneous first launch loses the race on the unique index: it is now an update
      if (isDuplicateKey(error) && attempt < 2) continue;
      throw error;
    }
  }
  const user = result.value!;
  const created = result.lastErrorObject?.updatedExisting === false;
  // a new launch (Telegram signed it after the player was last seen): one record, at most one a minute (LAST_SEEN_PRECISION_MS)
  const signedAt = new Date(launch.auth_date * 1000);
  if (launchRecorder && (!existing || signedAt > existing.lastSeenAt)) await launchRecorder(user._id, signedAt);
  if (fields.usernameLower) {
    // Telegram usernames move between accounts: whoever held this one before no longer does
    await UserModel.updateMany(
      { usernameLower: fields.usernameLower, telegramId: { $ne: telegramId } },
      { $set: { username: '', usernameLower: '' } },
    );
  }
  // a simultaneous first launch wrote the player first: this launch's referral, never written, is removed by its own finish
  if (!created && finishReferral) await finishReferral();
  if (!created || !finishReferral) return { user, created };
  // the rest of the join (the invite counted, the referrer's score due, the reward) is its operation's: a crash from here on is
  // finished by the engine's sweep
  return { user, created, referral: await finishReferral() };
}

/** Who wrote to the bot, as a Telegram update names them. */
export interface BotChatUser {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  is_premium?: boolean;
}

/**
 * A player sent /start to the bot in a private chat: the bot may now message them. A newcomer is
 * registered here, with the referrer of the code, exactly as a first launch of the mini app would.
 */
export async function registerFromBotStart(from: BotChatUser, code: string | undefined, now: Date): Promise<LaunchOutcome> {
  const existing = await UserModel.findOneAndUpdate(
    { telegramId: from.id },
    { $set: { messagePermission: true } },
    { returnDocument: 'after' },
  );
  if (existing) return { user: existing, created: false };
  const { id, first_name, last_name, username, language_code, is_premium } = from;
  return upsertFromTelegram(
    {
      user: { id, first_name, last_name, username, language_code, is_premium, allows_write_to_pm: true },
      auth_date: Math.floor(now.getTime() / 1000),
      start_param: code,
    },
    now,
  );
}

/** The development demo player: one record, created the first time it is asked for. */
export async function demoPlayer(now: Date): Promise<UserDocument> {
  const existing = await UserModel.findOne({ telegramId: DEMO_TELEGRAM_ID, isDemo: true });
  if (existing) return existing;
  const user = await UserModel.findOneAndUpdate(
    { telegramId: DEMO_TELEGRAM_ID, isDemo: true },
    {
      $set: { lastSeenAt: now, updatedAt: now },
      $setOnInsert: {
        firstName: 'Demo',
        lastName: 'Player',
        name: 'Demo Player',
        referralCode: await unusedReferralCode(),
        inviteLimit: (await getAppConfig()).defaultInviteLimit,
        createdAt: now,
      },
    },
    { upsert: true, returnDocument: 'after', setDefaultsOnInsert: true, timestamps: false },
  );
  return user;
}

/** One coin's withdrawals of a player not yet paid, in micro-units: all requested, and how much of it left the balance. */
interface WithdrawalsInFlight {
  requested: bigint;
  taken: bigint;
}
type WithdrawalsInFlightOf = (userId: Id) => Promise<Map<string, WithdrawalsInFlight>>;

/**
 * What a player's figures read of their withdrawals in flight. The withdrawals module reads them and itself reads players, so
 * the composition roots hand its reader in (`configureWithdrawalFigures`): users never imports withdrawals.
 */
let withdrawalsInFlight: WithdrawalsInFlightOf = () => {
  throw new Error('configureWithdrawalFigures was not called: a composition root (trpc/root.ts, rest/registry.ts) hands it in');
};

export function configureWithdrawalFigures(read: WithdrawalsInFlightOf): void {
  withdrawalsInFlight = read;
}

/**
 * A player's balance and money figures per coin, as decimal strings, in the app's coin order: every coin they
 * hold or earned in and, for the player's own screens, every enabled coin too.
 */
export async function moneyByCoin(userId: Id, { everyEnabledCoin, language }: { everyEnabledCoin: boolean; language?: string }) {
  const [balances, figures, inFlight, coins] = await Promise.all([
    balancesOf(userId),
    figuresByCoin(userId),
    withdrawalsInFlight(userId),
    listCoins({ symbol: 1, name: 1, fa: 1, icon: 1, enabled: 1 }),
  ]);
  const figuresOf = new Map(figures.map((row) => [row.coin, row]));
  return coins
    .filter((coin) => (everyEnabledCoin && coin.enabled) || balances.has(String(coin._id)) || figuresOf.has(String(coin._id)))
    .map((coin) => {
      const id = String(coin._id);
      const row = figuresOf.get(id);
      // the ledger counts a request's amount out when it is taken; it is withdrawn only once paid
      const pending = inFlight.get(id) ?? { requested: 0n, taken: 0n };
      return {
        coinId: id,
        symbol: coin.symbol,
        name: coinNameFor(coin, language),
        icon: coin.icon,
        balance: fromMicros(balances.get(id) ?? 0n),
        rewards: fromMicros(row?.rewards ?? 0n),
        earned: fromMicros(row?.earned ?? 0n),
        withdrawn: fromMicros((row?.withdrawn ?? 0n) - pending.taken),
        pendingWithdrawals: fromMicros(pending.requested),
        gifts: fromMicros(row?.gifts ?? 0n),
      };
    });
}

/** Whether a player exists and may still be given coins: their status and whether they blocked the bot; null when none. */
export function playerStanding(playerId: Id) {
  return UserModel.findById(playerId, { status: 1, blocked: 1 }).lean<{ status?: string; blocked?: boolean }>();
}

/** The signed-in player's own profile: explicit fields only. */
export async function profileOf(user: UserDocument) {
  return {
    id: String(user._id),
    telegramId: user.telegramId,
    name: user.name,
    username: user.username,
    language: user.language,
    theme: user.theme,
    messagePermission: user.messagePermission,
    isPremium: user.isPremium,
    photoUrl: user.photoUrl,
    isDemo: user.isDemo,
    referralCode: user.referralCode,
    inviteLimit: user.inviteLimit,
    referrersCount: user.referrersCount,
    missionsCount: user.missionsCount,
    doneMissionsCount: user.doneMissionsCount,
    createdAt: user.createdAt,
    /** active or frozen (a banned player is refused before this), with the reason in the player's language. */
    status: user.status,
    statusReason: statusReasonFor(user),
    coins: await moneyByCoin(user._id, { everyEnabledCoin: true, language: user.language }),
  };
}

/**
 * The player allowed the bot to message them when the app asked (Telegram's write-access request): notifications and
 * sign-in codes can reach them. Only an allowance is taken from the app; a bot message that Telegram refuses clears it again.
 */
export async function allowMessages(user: UserDocument, now: Date): Promise<{ messagePermission: boolean }> {
  await UserModel.updateOne({ _id: user._id }, { $set: { messagePermission: true, updatedAt: now } }, { timestamps: false });
  return { messagePermission: true };
}

/** The reminders a player gets: each kind on or off, and whether the bot may write to them at all (it sends nothing otherwise). */
export async function remindersOf(playerId: Id) {
  const [off, messagePermission] = await Promise.all([remindersOff(playerId), allowsMessages(playerId)]);
  return { messagePermission, kinds: REMINDER_KINDS.map((kind) => ({ kind, on: !off.includes(kind) })) };
}

export async function switchReminderOf(playerId: Id, kind: ReminderKind, on: boolean) {
  await switchReminder(playerId, kind, on);
  return remindersOf(playerId);
}

export async function updateSettings(user: UserDocument, settings: { language?: Language; theme?: Theme }, now: Date) {
  const changes = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  const updated = await UserModel.findOneAndUpdate(
    { _id: user._id },
    { $set: { ...changes, updatedAt: now } },
    { returnDocument: 'after', timestamps: false },
  );
  return { language: updated!.language, theme: updated!.theme };
}

/** One coin's row on the player's page in the console: balance, rewards, earned, withdrawn (paid), pending withdrawals and gifts. */
export function presentCoinFigures({ coinId, icon: _icon, ...figures }: Awaited<ReturnType<typeof moneyByCoin>>[number]) {
  return { id: coinId, coin: coinId, ...figures };
}
