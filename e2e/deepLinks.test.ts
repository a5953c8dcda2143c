// A bot message's button opening the page it is about (issue 35, "a reminder's deep link opening the right page"), in a real
// Chromium inside a recording Telegram webview: the bot (its runtime, on the Bot API stand-in) sends each kind of message, the
// test opens the app as Telegram opens the button's t.me link (its `startapp` as `tgWebAppStartParam` and in the signed launch
// data), and the page the message is about is on screen, with its part in view; in English and Persian, in Telegram's dark and
// light schemes, at 390 px and once at 320. A referral code's launch still opens home.
import type { Page } from 'playwright-core';
import { toMicros } from '@gift/shared';
import { calendarDay, dayBefore } from '../server/src/lib/calendarDay';
import { getAppConfig, setAppConfigFields } from '../server/src/modules/config/config.service';
import { CategoryModel } from '../server/src/modules/content/content.models';
import { MissionModel } from '../server/src/modules/missions/mission.models';
import { notify } from '../server/src/modules/notifications/notifications.service';
import type { NotificationEvent, NotificationFacts } from '../server/src/modules/notifications/notificationTexts';
import { StakeModel, StakingCoinModel } from '../server/src/modules/staking/staking.models';
import { setPlayerStatus } from '../server/src/modules/users/playerStatus.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { startBotApiStandIn } from '../server/test/botApiStandIn';
import { TEST_BOT_TOKEN } from '../server/test/helpers';
import { signInitData } from '../server/test/telegram';
import { useBotRuntime, useProduct } from './fixture';
import { PHONE, TELEGRAM_PALETTES, fits, recordTelegramBridge, screenshotPath, type Scheme } from './support';

jest.setTimeout(240_000);

const PLAYERS = { en: 6_500_001, fa: 6_500_002 } as const;
type Language = keyof typeof PLAYERS;
const DAY = 86_400_000;

const product = useProduct({
  standIn: () => startBotApiStandIn(TEST_BOT_TOKEN),
  demo: true,
  telegram: true,
  env: (standIn) => ({ TELEGRAM_API_ROOT: standIn.apiRoot }),
  before: async () => {
    // reminders at any hour the test runs, all of them
    await setAppConfigFields({ reminders: { quietStart: '00:00', quietEnd: '00:00', dailyCap: 10, streakHoursBefore: 4 } });
    const today = calendarDay(new Date(), (await getAppConfig()).timezone);
    for (const language of ['en', 'fa'] as const)
      await UserModel.create({
        telegramId: PLAYERS[language],
        name: `Reminded ${language}`,
        firstName: 'Reminded',
        referralCode: `e2edeep${language}`,
        language,
        messagePermission: true,
        // a streak kept yesterday: it breaks at the end of today
        streak: { days: 6, startDay: '2020-01-01', lastDay: dayBefore(today) },
      });
  },
});

// the bot as the server runs it: its notification sender makes the buttons' links
useBotRuntime(product);

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

/** Four stakes of the player, newest first on the page: the one that unlocked is the oldest, at the bottom of the list. */
async function stakesOf(telegramId: number): Promise<string> {
  const player = (await UserModel.findOne({ telegramId }).lean())!;
  const offer = (await StakingCoinModel.findOne({ enabled: true }).lean())!;
  const ids: string[] = [];
  for (const [index, unlocksIn] of [-DAY, 3 * DAY, 5 * DAY, 6 * DAY].entries()) {
    const stake = await StakeModel.create({
      user: player._id,
      stakingCoin: offer._id,
      coin: offer.coin,
      amount: Number(toMicros(String(100 * (index + 1)))),
      duration: 'week',
      profitPercent: '1',
      profit: Number(toMicros(String(index + 1))),
      startedAt: new Date(Date.now() + unlocksIn - 7 * DAY),
      unlocksAt: new Date(Date.now() + unlocksIn),
      idempotencyKey: `e2e-deep-link:${telegramId}:${index}`,
    });
    ids.push(String(stake._id));
  }
  return ids[0]!;
}

/** What each message is about: the page's title, and the part of it that must be in view (by id). */
const PAGES = {
  en: { home: 'Tasks', staking: 'Staking', leagues: 'Leagues', withdraw: 'Withdraw', invite: 'Invite a friend', help: 'Help' },
  fa: { home: 'ماموریت‌ها', staking: 'استیکینگ', leagues: 'لیگ‌ها', withdraw: 'برداشت', invite: 'دعوت از دوستان', help: 'راهنما' },
} as const;
/**
 * `mark`: how the message's text starts (notificationTexts.ts), which tells the messages apart: the bot sends them in any order.
 * `heading`: the page's title when it is not one of PAGES (a mission's page is titled by its category), with the mission's name.
 */
type Case = {
  event: NotificationEvent;
  mark: string;
  facts: object;
  path: string;
  title: keyof (typeof PAGES)['en'] | { heading: string; mission: string };
  inView?: string;
};

/** A demo mission, with its title and its category's, in the player's language, as its page shows them. */
async function missionOnItsPage(language: Language) {
  const mission = (await MissionModel.findOne({ enabled: true, verifyType: 'manual' }).sort({ order: 1 }).lean())!;
  const category = (await CategoryModel.findById(mission.category).lean())!;
  const text = (english: string | undefined, fa: string | undefined) => (language === 'fa' && fa?.trim() ? fa : (english ?? ''));
  return {
    id: String(mission._id),
    title: mission.title,
    page: { heading: text(category.title, category.fa?.title), mission: text(mission.title, mission.fa?.title) },
  };
}

function cases(stakeId: string, today: string, mission: Awaited<ReturnType<typeof missionOnItsPage>>): Case[] {
  const money = { amount: '120', symbol: 'GIFT' };
  const verdict = { mission: mission.title, missionId: mission.id };
  return [
    { event: 'mining-ready', mark: '⛏️', facts: { ...money, sessionId: stakeId }, path: '/', title: 'home', inView: 'mining' },
    { event: 'streak-ending', mark: '🔥', facts: { days: 6, day: today }, path: '/', title: 'home', inView: 'today' },
    {
      event: 'stake-unlocked',
      mark: '🔓',
      facts: { ...money, total: '101', stakeId },
      path: '/staking',
      title: 'staking',
      inView: `stake-${stakeId}`,
    },
    { event: 'prize-won', mark: '🏆', facts: { ...money, rank: 2 }, path: '/leagues', title: 'leagues' },
    {
      event: 'withdrawal-paid',
      mark: '💸',
      facts: { ...money, txHash: 'e2e' },
      path: '/profile/withdraw',
      title: 'withdraw',
      inView: 'withdrawals',
    },
    { event: 'friend-joined', mark: '🎉', facts: { friend: 'Sara' }, path: '/invite', title: 'invite', inView: 'friends' },
    // a mission's verdict, approved or rejected: that mission's page
    { event: 'mission-approved', mark: '✅', facts: { ...verdict, ...money }, path: `/tasks/${mission.id}`, title: mission.page },
    {
      event: 'mission-rejected',
      mark: '❌',
      facts: { ...verdict, reason: 'No screenshot', reasonFa: 'بدون تصویر' },
      path: `/tasks/${mission.id}`,
      title: mission.page,
    },
    // last: the player is frozen by then, as a player who appealed is, and the page leads with their appeal
    { event: 'appeal-answered', mark: '📨', facts: { answer: 'Checked.' }, path: '/profile/help', title: 'help', inView: 'appeal-title' },
  ];
}

/** The button link of the bot's message to the player that starts with `mark`, once it arrived. */
async function buttonLink(telegramId: number, mark: string): Promise<string> {
  const message = () => product.standIn.sent.find((sent) => sent.chat_id === telegramId && sent.text.startsWith(mark));
  for (let tries = 0; !message() && tries < 150; tries++) await new Promise((resolve) => setTimeout(resolve, 200));
  return (message()!.reply_markup as { inline_keyboard: Array<Array<{ url: string }>> }).inline_keyboard[0]![0]!.url;
}

/** The app opened as Telegram opens a t.me link with `startapp`: the parameter beside the launch and inside its signed data. */
async function launchFromLink(link: string, language: Language, scheme: Scheme, viewport = PHONE): Promise<Page> {
  const startParam = new URL(link).searchParams.get('startapp') ?? undefined;
  const user = { id: PLAYERS[language], first_name: 'Reminded', language_code: language };
  const url = new URL(product.telegramUrl('/', user, { themeParams: TELEGRAM_PALETTES[scheme] }));
  const hash = new URLSearchParams(url.hash.slice(1));
  hash.set('tgWebAppData', signInitData({ user, startParam }, TEST_BOT_TOKEN));
  if (startParam) hash.set('tgWebAppStartParam', startParam);
  url.hash = hash.toString();
  const page = await product.freshPage(viewport);
  await recordTelegramBridge(page);
  await page.goto(url.toString());
  return page;
}

/** The part `id` is on screen: its top between the top of the screen and the bottom navigation. */
const inView = (page: Page, id: string) =>
  page.waitForFunction(
    (anchor) => {
      const top = document.getElementById(anchor)?.getBoundingClientRect().top;
      const nav = document.querySelector('.bottom-nav')!.getBoundingClientRect().top;
      return top !== undefined && top >= 0 && top < nav - 40;
    },
    id,
    { timeout: 10_000 },
  );

it.each(['en', 'fa'] as const)("opens the page each of the bot's messages is about, in %s", async (language) => {
  const telegramId = PLAYERS[language];
  const stakeId = await stakesOf(telegramId);
  const today = calendarDay(new Date(), (await getAppConfig()).timezone);
  const all = cases(stakeId, today, await missionOnItsPage(language));
  const player = (await UserModel.findOne({ telegramId }, { _id: 1 }).lean())!;
  // queued as the services queue them; the bot's sender sends them
  for (const { event, facts } of all)
    await notify(player._id, `e2e-${event}:${telegramId}`, event, facts as NotificationFacts[typeof event]);
  for (const [index, { event, mark, path, title, inView: part }] of all.entries()) {
    // each message in the other scheme than the one before; English starts dark, Persian light
    const scheme: Scheme = (index + (language === 'en' ? 0 : 1)) % 2 === 0 ? 'dark' : 'light';
    const link = await buttonLink(telegramId, mark);
    expect(link).toMatch(/^https:\/\/t\.me\/GiftRewardsBot\/app\?startapp=go-[a-z]+(-[0-9a-f]{24})?$/);
    // once at 320 px: the unlocked stake, in Persian
    const widths = language === 'fa' && event === 'stake-unlocked' ? [390, 320] : [390];
    if (event === 'appeal-answered')
      await setPlayerStatus(player._id, { status: 'frozen', statusReason: 'Checking', fa: { statusReason: 'در حال بررسی' } }, new Date());
    for (const width of widths) {
      const page = await launchFromLink(link, language, scheme, { width, height: width === 320 ? 640 : PHONE.height });
      await page.getByRole('heading', { level: 1, name: typeof title === 'string' ? PAGES[language][title] : title.heading }).waitFor();
      if (typeof title !== 'string') await page.getByRole('heading', { level: 2, name: title.mission }).waitFor();
      expect({ event, path: new URL(page.url()).pathname }).toEqual({ event, path });
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
      if (part) await inView(page, part);
      await fits(page);
      // the screen as the player sees it on arrival (not the whole page): the part the message is about is on it
      await page.screenshot({ path: screenshotPath(`deep-link-${event}-${language}-${scheme}-${width}`) });
      await page.close();
    }
  }
});

it("opens home for a referral code's launch, and the player's page of the target only once: Back to home stays home", async () => {
  const referrer = (await UserModel.findOne({ telegramId: PLAYERS.en }).lean())!;
  const home = await launchFromLink(`https://t.me/GiftRewardsBot/app?startapp=${referrer.referralCode}`, 'en', 'dark');
  await home.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
  expect(new URL(home.url()).pathname).toBe('/');
  await home.close();

  const leagues = await launchFromLink('https://t.me/GiftRewardsBot/app?startapp=go-leagues', 'en', 'light');
  await leagues.getByRole('heading', { level: 1, name: 'Leagues' }).waitFor();
  await leagues.getByRole('navigation').getByRole('link', { name: 'Tasks' }).click();
  await leagues.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
  // home's data arriving does not send the player back to the launch's page
  await leagues.locator('#mining').waitFor();
  expect(new URL(leagues.url()).pathname).toBe('/');
  await leagues.close();
});
