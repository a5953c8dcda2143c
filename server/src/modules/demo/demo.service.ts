import { createHash, randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import { Types } from 'mongoose';
import { microsToStored, toMicros, type LedgerReason } from '@gift/shared';
import type { Logger } from '../../lib/logger';
import { scopedKey } from '../../db/ids';
import { anyCoinExists, insertCoins } from '../coins/giftCoins.service';
import { setAppConfigFields } from '../config/config.service';
import { insertCategories, insertCovers, insertPartners } from '../content/homeContent.service';
import { entryKeys, postEntry } from '../ledger/ledger.service';
import { seedDemoLeague } from '../leagues/leagueDemo.service';
import { insertMiningSessions } from '../mining/mining.service';
import { countEarlierCompletions, insertMissions, insertProgress } from '../missions/missions.service';
import { insertStakes, insertStakingOffers } from '../staking/staking.service';
import { insertStarOffers } from '../shop/shop.service';
import { countInvite, highestTelegramId, insertPlayers } from '../users/players.service';
import { insertWalletLinks } from '../wallet/wallet.service';
import { insertWithdrawals } from '../withdrawals/withdrawals.service';

const HOUR = 3_600_000;
/** A decimal amount as the micro-units a money field stores. */
const stored = (amount: string) => microsToStored(toMicros(amount));
const DAY = 24 * HOUR;

/** A checksum-valid TON address derived from a label, so demo addresses look and parse like real ones. */
function demoAddress(label: string, bounceable = true): { friendly: string; raw: string } {
  const address = new Address(0, createHash('sha256').update(`gift-rewards:${label}`).digest());
  return { friendly: address.toString({ bounceable }), raw: address.toRawString() };
}

/** Demo pictures ship with the user app (client/public/demo), so the embedded default looks right offline. */
const demoImage = (file: string) => `/demo/${file}`;

type MissionSeed = {
  key: string;
  category: string;
  title: string;
  description: string;
  verifyType: 'auto' | 'time' | 'telegram' | 'youtube' | 'instagram' | 'manual' | 'boost' | 'emojiStatus' | 'homeScreen' | 'story';
  reward: string;
  coin?: 'TON' | 'GIFT' | 'STAR';
  link?: string;
  verifyDuration?: number;
  secretCode?: string;
  /** Telegram-native missions: the custom emoji to set, the story's picture and caption. */
  emojiId?: string;
  storyMedia?: string;
  storyText?: string;
  goButton?: string;
  claimButton?: string;
  mustDone?: boolean;
  enabled?: boolean;
  repeat?: 'none' | 'daily';
  proof?: Array<'link' | 'text' | 'image'>;
  /** Days from the seed to the end of a limited-time mission. */
  endsInDays?: number;
  cap?: number;
  /** What Persian players read. */
  fa: { title: string; description: string; goButton?: string; claimButton?: string };
};

const CATEGORIES = [
  {
    key: 'start',
    title: 'Get started',
    description: 'Your first steps: the ⭐ missions unlock everything else.',
    fa: { title: 'شروع کار', description: 'نخستین قدم‌ها: ماموریت‌های ⭐ همه چیز را باز می‌کنند.' },
  },
  {
    key: 'social',
    title: 'Social',
    description: 'Follow Gift Rewards and the TON community.',
    fa: { title: 'شبکه‌های اجتماعی', description: 'Gift Rewards و جامعهٔ TON را دنبال کنید.' },
  },
  {
    key: 'partners',
    title: 'Partners',
    description: 'Try the apps of our partners and earn more.',
    fa: { title: 'همکاران', description: 'برنامه‌های همکاران ما را امتحان کنید و بیشتر جایزه بگیرید.' },
  },
  {
    key: 'events',
    title: 'Events',
    description: 'Limited-time quests, and the daily check-in.',
    fa: { title: 'رویدادها', description: 'ماموریت‌های زمان‌دار، و حضور روزانه.' },
  },
  {
    key: 'telegram',
    title: 'Telegram',
    description: 'Boost, status, home screen and stories: grow with Telegram itself.',
    fa: { title: 'تلگرام', description: 'بوست، استاتوس، صفحهٔ اصلی و استوری: با خود تلگرام رشد کنید.' },
  },
] as const;

const MISSIONS: MissionSeed[] = [
  {
    key: 'welcome',
    category: 'start',
    title: 'Claim your welcome bonus',
    description: 'Welcome to Gift Rewards! Tap Claim to collect your first GIFT.',
    verifyType: 'auto',
    reward: '100',
    mustDone: true,
    claimButton: 'Claim',
    fa: {
      title: 'دریافت جایزهٔ خوش\u200cآمد',
      description: 'به Gift Rewards خوش آمدید! برای گرفتن نخستین GIFT خود روی دریافت بزنید.',
      claimButton: 'دریافت',
    },
  },
  {
    key: 'guide',
    category: 'start',
    title: 'Read how Gift Rewards works',
    description: 'Open the short guide about missions, mining and staking. Claim unlocks one minute after you open it.',
    verifyType: 'time',
    reward: '150',
    link: 'https://telegra.ph/How-Gift-Rewards-works-05-01',
    verifyDuration: 1,
    mustDone: true,
    goButton: 'Read',
    fa: {
      title: 'خواندن راهنمای Gift Rewards',
      description:
        'راهنمای کوتاه ماموریت\u200cها، استخراج و سپرده\u200cگذاری را باز کنید. دکمهٔ دریافت یک دقیقه پس از باز کردن آن فعال می\u200cشود.',
      goButton: 'خواندن',
    },
  },
  {
    key: 'story',
    category: 'start',
    title: 'Post a story about Gift Rewards',
    description:
      'Share a Telegram story that mentions @GiftRewardsBot. Once it is up, claim with its link and a screenshot: an operator checks them and credits the reward.',
    verifyType: 'manual',
    reward: '1000',
    link: 'https://t.me/GiftRewardsBot',
    proof: ['link', 'image'],
    goButton: 'Open',
    fa: {
      title: 'انتشار استوری دربارهٔ Gift Rewards',
      description:
        'یک استوری تلگرام منتشر کنید که \u200e@GiftRewardsBot را نام ببرد. پس از انتشار، پیوند و اسکرین‌شات آن را بفرستید: یک اپراتور آن‌ها را بررسی و جایزه را واریز می\u200cکند.',
      goButton: 'باز کردن',
    },
  },
  {
    key: 'ton-channel',
    category: 'social',
    title: 'Join the TON community channel',
    description: 'Subscribe to the TON channel for news from the ecosystem. The bot checks your membership.',
    verifyType: 'telegram',
    reward: '300',
    link: 'https://t.me/toncoin',
    goButton: 'Join',
    fa: {
      title: 'عضویت در کانال جامعهٔ TON',
      description: 'برای اخبار اکوسیستم در کانال TON عضو شوید. ربات عضویت شما را بررسی می\u200cکند.',
      goButton: 'عضویت',
    },
  },
  {
    key: 'telegram-news',
    category: 'social',
    title: 'Subscribe to Telegram News',
    description: 'Stay up to date with new Telegram features.',
    verifyType: 'telegram',
    reward: '200',
    link: 'https://t.me/telegram',
    goButton: 'Join',
    fa: { title: 'عضویت در اخبار تلگرام', description: 'از ویژگی\u200cهای تازهٔ تلگرام باخبر بمانید.', goButton: 'عضویت' },
  },
  {
    key: 'youtube',
    category: 'social',
    title: 'Watch: what is TON?',
    description: 'Watch the video to the end. The secret code is said in the last minute: type it to claim.',
    verifyType: 'youtube',
    reward: '400',
    link: 'https://www.youtube.com/@the_open_network',
    secretCode: 'OPENNETWORK',
    goButton: 'Watch',
    fa: {
      title: 'تماشا کنید: TON چیست؟',
      description: 'ویدیو را تا پایان ببینید. کد مخفی در دقیقهٔ آخر گفته می\u200cشود: برای دریافت آن را وارد کنید.',
      goButton: 'تماشا',
    },
  },
  {
    key: 'instagram',
    category: 'social',
    title: 'Follow TON on Instagram',
    description: 'Follow the TON account on Instagram. Claim unlocks two minutes after you open it.',
    verifyType: 'instagram',
    reward: '200',
    link: 'https://www.instagram.com/ton_blockchain/',
    verifyDuration: 2,
    goButton: 'Follow',
    fa: {
      title: 'دنبال کردن TON در اینستاگرام',
      description: 'حساب TON را در اینستاگرام دنبال کنید. دکمهٔ دریافت دو دقیقه پس از باز کردن آن فعال می\u200cشود.',
      goButton: 'دنبال کردن',
    },
  },
  {
    key: 'website',
    category: 'social',
    title: 'Visit ton.org',
    description: 'Have a look around the TON website.',
    verifyType: 'time',
    reward: '50',
    link: 'https://ton.org',
    verifyDuration: 1,
    goButton: 'Visit',
    fa: { title: 'بازدید از ton.org', description: 'نگاهی به وب\u200cسایت TON بیندازید.', goButton: 'بازدید' },
  },
  {
    key: 'stonfi-channel',
    category: 'partners',
    title: 'Join STON.fi on Telegram',
    description: 'Join the channel of the STON.fi exchange.',
    verifyType: 'telegram',
    reward: '250',
    link: 'https://t.me/stonfidex',
    goButton: 'Join',
    fa: { title: 'عضویت در STON.fi در تلگرام', description: 'در کانال صرافی STON.fi عضو شوید.', goButton: 'عضویت' },
  },
  {
    key: 'tonkeeper',
    category: 'partners',
    title: 'Get Tonkeeper',
    description: 'Install the Tonkeeper wallet: you will need a TON wallet to withdraw.',
    verifyType: 'auto',
    reward: '75',
    link: 'https://tonkeeper.com',
    goButton: 'Open',
    fa: {
      title: 'نصب Tonkeeper',
      description: 'کیف پول Tonkeeper را نصب کنید: برای برداشت به یک کیف پول TON نیاز دارید.',
      goButton: 'باز کردن',
    },
  },
  {
    key: 'getgems',
    category: 'partners',
    title: 'Explore Getgems',
    description: 'Browse the NFT marketplace of TON for two minutes.',
    verifyType: 'time',
    reward: '120',
    link: 'https://getgems.io',
    verifyDuration: 2,
    goButton: 'Explore',
    fa: { title: 'گشتی در Getgems', description: 'دو دقیقه در بازار NFT شبکهٔ TON بگردید.', goButton: 'گشت زدن' },
  },
  {
    key: 'swap',
    category: 'partners',
    title: 'Make your first swap on STON.fi',
    description: 'Swap any amount on STON.fi, then tap Claim: an operator checks it and credits the reward.',
    verifyType: 'manual',
    reward: '0.1',
    coin: 'TON',
    link: 'https://app.ston.fi/swap',
    proof: ['link', 'text'],
    goButton: 'Swap',
    fa: {
      title: 'نخستین مبادله در STON.fi',
      description: 'هر مقداری را در STON.fi مبادله کنید، سپس روی دریافت بزنید: یک اپراتور آن را بررسی و جایزه را واریز می\u200cکند.',
      goButton: 'مبادله',
    },
  },
  {
    key: 'stars',
    category: 'events',
    title: 'Collect launch-week Stars',
    description: 'A thank-you for joining in launch week: for the first 1,000 players only.',
    endsInDays: 5,
    cap: 1000,
    verifyType: 'auto',
    reward: '10',
    coin: 'STAR',
    fa: { title: 'دریافت ستاره\u200cهای هفتهٔ آغاز', description: 'هدیه\u200cای برای پیوستن در هفتهٔ آغاز: فقط برای ۱۰۰۰ بازیکن نخست.' },
  },
  {
    key: 'spring',
    category: 'events',
    title: 'Spring quest',
    description: 'This quest has ended.',
    verifyType: 'auto',
    reward: '500',
    enabled: false,
    fa: { title: 'ماموریت بهاری', description: 'این ماموریت به پایان رسیده است.' },
  },
];

// Telegram's own ways to grow (docs/player-loop.md): two checked by the Bot API, two time-gated with small rewards
MISSIONS.push(
  {
    key: 'telegram-boost',
    category: 'telegram',
    title: 'Boost the TON channel',
    description: 'Give the TON channel a boost. The bot checks that your boost is there.',
    verifyType: 'boost',
    reward: '300',
    link: 'https://t.me/boost/toncoin',
    fa: { title: 'بوست کانال TON', description: 'به کانال TON بوست بدهید. ربات بوست شما را بررسی می\u200cکند.' },
  },
  {
    key: 'telegram-emoji-status',
    category: 'telegram',
    title: 'Wear the GIFT emoji status',
    description: 'Set the GIFT emoji as your status (Telegram Premium). The bot checks your status.',
    verifyType: 'emojiStatus',
    reward: '150',
    emojiId: '5368324170671202286',
    fa: {
      title: 'استاتوس ایموجی GIFT',
      description: 'ایموجی GIFT را استاتوس خود کنید (تلگرام پریمیوم). ربات استاتوس شما را بررسی می\u200cکند.',
    },
  },
  {
    key: 'telegram-home-screen',
    category: 'telegram',
    title: 'Add the app to your home screen',
    description: 'One tap from your home screen next time. Claim unlocks a minute after it is added.',
    verifyType: 'homeScreen',
    reward: '20',
    verifyDuration: 1,
    fa: {
      title: 'افزودن برنامه به صفحهٔ اصلی',
      description: 'دفعهٔ بعد با یک لمس از صفحهٔ اصلی. دکمهٔ دریافت یک دقیقه پس از افزودن فعال می\u200cشود.',
    },
  },
  {
    key: 'telegram-story',
    category: 'telegram',
    title: 'Share a story',
    description: 'Tell your friends in a story. Claim unlocks two minutes after you open the editor.',
    verifyType: 'story',
    reward: '30',
    verifyDuration: 2,
    // the app's own icon, a PNG Telegram's story editor opens
    storyMedia: '/icon-512.png',
    storyText: 'Earning coins in GIFT Rewards',
    fa: {
      title: 'اشتراک یک استوری',
      description: 'در یک استوری به دوستانتان بگویید. دکمهٔ دریافت دو دقیقه پس از باز کردن ویرایشگر فعال می\u200cشود.',
    },
  },
);

MISSIONS.push({
  key: 'checkin',
  category: 'events',
  title: 'Daily check-in',
  description: 'Come back every day: each check-in pays, and a streak of days pays a bonus.',
  verifyType: 'auto',
  reward: '20',
  repeat: 'daily',
  claimButton: 'Check in',
  fa: {
    title: 'حضور روزانه',
    description: 'هر روز برگردید: هر حضور جایزه دارد و روزهای پیاپی پاداش بیشتری.',
    claimButton: 'ثبت حضور',
  },
});

const DEMO_PLAYERS = [
  {
    key: 'sara',
    telegramId: 5_214_330_871,
    firstName: 'Sara',
    lastName: 'Ahmadi',
    username: 'sara_ahmadi',
    language: 'fa' as const,
    isPremium: true,
    daysAgo: 12,
  },
  {
    key: 'alex',
    telegramId: 6_031_447_920,
    firstName: 'Alex',
    lastName: 'Morgan',
    username: 'alexmorgan',
    language: 'en' as const,
    isPremium: false,
    daysAgo: 9,
    referrer: 'sara',
  },
  {
    key: 'daniel',
    telegramId: 1_882_905_316,
    firstName: 'Daniel',
    lastName: 'Kim',
    username: 'dkim',
    language: 'en' as const,
    isPremium: false,
    daysAgo: 6,
    referrer: 'sara',
  },
  {
    key: 'maya',
    telegramId: 7_120_558_044,
    firstName: 'Maya',
    lastName: 'Patel',
    username: '',
    language: 'en' as const,
    isPremium: false,
    daysAgo: 2,
    referrer: 'alex',
  },
];

/** What each demo player has done, in the order it happened. */
const DEMO_HISTORY: Record<
  string,
  {
    done: string[];
    pending?: string[];
    started?: string[];
    miningMoved?: number;
    miningRunning?: boolean;
    gift?: string;
    stake?: string;
    withdraw?: string;
  }
> = {
  sara: {
    done: ['welcome', 'guide', 'ton-channel', 'telegram-news', 'youtube', 'website', 'tonkeeper'],
    miningMoved: 3,
    gift: '250',
    stake: '500',
    withdraw: '400',
  },
  alex: { done: ['welcome', 'guide', 'website', 'instagram'], pending: ['story'], miningMoved: 1, miningRunning: true },
  daniel: { done: ['welcome', 'guide', 'stars'], pending: ['swap'], started: ['getgems'] },
  maya: { done: ['welcome'], started: ['guide'] },
};

/**
 * Fills an empty embedded database with believable demo content: coins, missions of every verify type,
 * staking offers, covers, partners, App Config and a few players whose history went through the ledger.
 * Does nothing when gift coins already exist, so restarts and real databases are left alone.
 */
export async function seedDemoData(
  logger: Logger,
  now: Date = new Date(),
  { jettonMasters = {} }: { jettonMasters?: Record<string, string> } = {},
): Promise<boolean> {
  if (await anyCoinExists()) return false;
  const at = (ms: number) => new Date(now.getTime() - ms);

  const gift = demoAddress('GIFT jetton master');
  const star = demoAddress('STAR jetton master');
  const [ton, giftCoin, starCoin] = await insertCoins([
    {
      name: 'Toncoin',
      fa: { name: 'تون‌کوین' },
      symbol: 'TON',
      icon: demoImage('coin-ton.svg'),
      decimals: 9,
      usdPrice: '3.25',
      // brakes on, as every coin's: a gift or reward above, a payout above, one operator's value a day (about 250, 500, 1,000 USD)
      giftApprovalAbove: stored('50'),
      payoutApprovalAbove: stored('100'),
      operatorDailyLimit: stored('200'),
      minWithdraw: stored('1'),
      withdrawEnabled: true,
      network: 'ton',
      order: 0,
    },
    {
      name: 'Gift Coin',
      fa: { name: 'سکهٔ هدیه' },
      symbol: 'GIFT',
      icon: demoImage('coin-gift.svg'),
      decimals: 9,
      usdPrice: '0.05',
      // brakes on, as every coin's: a gift or reward above, a payout above, one operator's value a day (about 250, 500, 1,000 USD)
      giftApprovalAbove: stored('5000'),
      payoutApprovalAbove: stored('10000'),
      operatorDailyLimit: stored('20000'),
      minWithdraw: stored('100'),
      withdrawEnabled: true,
      network: 'jetton',
      jettonMaster: jettonMasters.GIFT ?? gift.friendly,
      order: 1,
    },
    {
      name: 'Star Points',
      fa: { name: 'امتیاز ستاره' },
      symbol: 'STAR',
      icon: demoImage('coin-star.svg'),
      decimals: 9,
      usdPrice: '',
      minWithdraw: 0,
      // brakes on, as every coin's: a gift or reward above, a payout above, one operator's value a day (about 250, 500, 1,000 USD)
      giftApprovalAbove: stored('1000'),
      payoutApprovalAbove: stored('1000'),
      operatorDailyLimit: stored('5000'),
      withdrawEnabled: false,
      network: 'jetton',
      jettonMaster: jettonMasters.STAR ?? star.friendly,
      order: 2,
    },
  ]);
  const coins = { TON: ton!, GIFT: giftCoin!, STAR: starCoin! };

  const createdCategories = await insertCategories(
    CATEGORIES.map((category, order) => ({ title: category.title, description: category.description, fa: category.fa, order, image: '' })),
  );
  const categories = new Map<string, Types.ObjectId>(CATEGORIES.map((category, index) => [category.key, createdCategories[index]!._id]));

  const createdMissions = await insertMissions(
    MISSIONS.map((mission, order) => ({
      category: categories.get(mission.category)!,
      coin: coins[mission.coin ?? 'GIFT']._id,
      order,
      title: mission.title,
      description: mission.description,
      verifyType: mission.verifyType,
      reward: stored(mission.reward),
      link: mission.link ?? '',
      image: '',
      verifyDuration: mission.verifyDuration ?? 0,
      secretCode: mission.secretCode ?? '',
      emojiId: mission.emojiId ?? '',
      storyMedia: mission.storyMedia ?? '',
      storyText: mission.storyText ?? '',
      goButton: mission.goButton ?? 'Go',
      claimButton: mission.claimButton ?? 'Claim',
      mustDone: mission.mustDone ?? false,
      enabled: mission.enabled ?? true,
      fa: { goButton: '', claimButton: '', ...mission.fa },
      repeat: mission.repeat ?? 'none',
      proof: mission.proof ?? [],
      cap: mission.cap ?? null,
      endsAt: mission.endsInDays ? new Date(now.getTime() + mission.endsInDays * DAY) : null,
      // the seeded history below predates the counter: the sweep counts it
      completionsCounted: false,
    })),
  );
  const missions = new Map(
    MISSIONS.map((mission, index) => {
      const { _id, category, coin } = createdMissions[index]!;
      return [mission.key, { _id, category: category!, coin: coin!, reward: mission.reward }];
    }),
  );
  // the players' history below names missions by key: two missions under one key would give one's claims to the other
  if (missions.size !== MISSIONS.length) throw new Error('two demo missions share a key');

  // the Stars shop: a boost of each kind, priced in whole Stars
  await insertStarOffers([
    {
      title: 'Double mining',
      description: 'Your next mining session yields twice as much',
      fa: { title: 'استخراج دوبرابر', description: 'نوبت بعدی استخراج شما دو برابر می‌دهد' },
      kind: 'multiplier',
      stars: 50,
      multiplierPercent: 200,
      order: 0,
    },
    {
      title: 'Extra session',
      description: "A whole session's coins, ready to move now",
      fa: { title: 'نوبت اضافه', description: 'سکه‌های یک نوبت کامل، آمادهٔ انتقال همین حالا' },
      kind: 'extraSession',
      stars: 30,
      order: 1,
    },
    {
      title: 'Streak freeze',
      description: 'Miss a day without losing your streak',
      fa: { title: 'محافظ زنجیره', description: 'یک روز را جا بیندازید و زنجیره‌تان را از دست ندهید' },
      kind: 'streakFreeze',
      stars: 20,
      order: 2,
    },
  ]);

  const [giftOffer] = await insertStakingOffers([
    {
      coin: coins.GIFT._id,
      minAmount: stored('100'),
      maxAmount: stored('1000000'),
      profits: { week: '1', month: '5', threeMonths: '18', sixMonths: '40', year: '100' },
      order: 0,
    },
    {
      coin: coins.TON._id,
      minAmount: stored('1'),
      maxAmount: stored('10000'),
      profits: { week: '0.2', month: '1', threeMonths: '3.5', sixMonths: '8', year: '18' },
      order: 1,
    },
  ]);

  await insertCovers([
    {
      title: 'Welcome to Gift Rewards',
      fa: { title: 'به Gift Rewards خوش آمدید', image: demoImage('cover-welcome-fa.svg') },
      image: demoImage('cover-welcome.svg'),
      link: '',
      order: 0,
    },
    {
      title: 'Stake GIFT for up to 100% a year',
      fa: { title: 'با سپرده‌گذاری GIFT تا ۱۰۰٪ در سال سود بگیرید', image: demoImage('cover-staking-fa.svg') },
      image: demoImage('cover-staking.svg'),
      link: '',
      order: 1,
    },
    {
      title: 'Invite friends: 50 GIFT each',
      fa: { title: 'دوستان را دعوت کنید: هر نفر ۵۰ GIFT', image: demoImage('cover-invite-fa.svg') },
      image: demoImage('cover-invite.svg'),
      link: '',
      order: 2,
    },
  ]);
  await insertPartners([
    { name: 'TON', fa: { name: 'تون' }, image: demoImage('partner-ton.svg'), link: 'https://ton.org', order: 0 },
    { name: 'Tonkeeper', image: demoImage('partner-tonkeeper.svg'), link: 'https://tonkeeper.com', order: 1 },
    { name: 'STON.fi', image: demoImage('partner-stonfi.svg'), link: 'https://ston.fi', order: 2 },
    { name: 'Getgems', image: demoImage('partner-getgems.svg'), link: 'https://getgems.io', order: 3 },
  ]);

  await setAppConfigFields({
    botUsername: 'GiftRewardsBot',
    miniAppName: 'app',
    referrerMessage: 'Join me on Gift Rewards 🎁 Complete missions, mine GIFT and stake it for profit.',
    fa: { referrerMessage: 'به من در Gift Rewards بپیوندید 🎁 ماموریت انجام دهید، GIFT استخراج کنید و برای سود سپرده بگذارید.' },
    referrerCoin: coins.GIFT._id,
    referrerCoinAmount: stored('50'),
    miningCoin: coins.GIFT._id,
    earnDurationHours: 8,
    earnAmount: stored('240'),
    defaultInviteLimit: 100,
    timezone: 'Asia/Tehran',
    streakMilestones: [
      { days: 3, coin: coins.GIFT._id, amount: stored('100') },
      { days: 7, coin: coins.GIFT._id, amount: stored('500') },
    ],
  });

  await seedDemoPlayers(now, at, coins, missions, giftOffer!._id);
  await seedDemoLeague(now, coins.GIFT._id);
  await countEarlierCompletions();
  logger.info({ coins: 3, categories: CATEGORIES.length, missions: MISSIONS.length, players: DEMO_PLAYERS.length }, 'seeded demo data');
  return true;
}

async function seedDemoPlayers(
  now: Date,
  at: (ms: number) => Date,
  coins: Record<'TON' | 'GIFT' | 'STAR', { _id: Types.ObjectId }>,
  missions: Map<string, { _id: Types.ObjectId; category: Types.ObjectId; coin: Types.ObjectId; reward: string }>,
  giftOffer: Types.ObjectId,
) {
  const players = new Map<string, Types.ObjectId>();
  const credit = (
    user: Types.ObjectId,
    coin: Types.ObjectId,
    amount: string,
    reason: LedgerReason,
    refType: string,
    refId: string,
    key: string,
    note = '',
  ) =>
    postEntry({
      userId: user,
      coinId: coin,
      amount: (reason === 'stake' || reason === 'withdraw' ? -1n : 1n) * toMicros(amount),
      reason,
      refType,
      refId,
      idempotencyKey: key,
      note,
    });

  for (const player of DEMO_PLAYERS) {
    const history = DEMO_HISTORY[player.key]!;
    const joined = at(player.daysAgo * DAY);
    const referrer = 'referrer' in player ? (players.get(player.referrer!) ?? null) : null;
    const [user] = await insertPlayers([
      {
        telegramId: player.telegramId,
        firstName: player.firstName,
        lastName: player.lastName,
        name: `${player.firstName} ${player.lastName}`,
        username: player.username,
        usernameLower: player.username.toLowerCase(),
        languageCode: player.language,
        language: player.language,
        messagePermission: true,
        isPremium: player.isPremium,
        referralCode: randomBytes(6).toString('base64url'),
        referrer,
        inviteLimit: 100,
        missionsCount: history.done.length + (history.pending?.length ?? 0) + (history.started?.length ?? 0),
        doneMissionsCount: history.done.length,
        lastSeenAt: at(Math.max(1, player.daysAgo - 1) * HOUR),
        createdAt: joined,
        // the recovery sweep gives each demo player a risk score, as it does a newcomer
        riskDueAt: joined,
      },
    ]);
    if (!user) throw new Error(`the demo player ${player.key} was not created`);
    players.set(player.key, user._id);

    if (referrer) {
      await countInvite(referrer, user._id);
      await credit(referrer, coins.GIFT._id, '50', 'referral', 'User', String(user._id), entryKeys.referralReward(user._id));
    }

    /** The player's progress on one demo mission, with the dates its status carries. */
    const progress = (key: string, status: 'done' | 'pending' | 'started', dates: Record<string, Date>) => {
      const mission = missions.get(key)!;
      const record = {
        user: user._id,
        mission: mission._id,
        category: mission.category,
        coin: mission.coin,
        reward: stored(mission.reward),
      };
      return { mission, record: { ...record, status, ...dates } };
    };
    for (const [index, key] of history.done.entries()) {
      const doneAt = new Date(joined.getTime() + (index + 1) * HOUR);
      const { mission, record } = progress(key, 'done', { startedAt: new Date(doneAt.getTime() - 5 * 60_000), claimedAt: doneAt, doneAt });
      const [userMission] = await insertProgress([record]);
      await credit(
        user._id,
        mission.coin,
        mission.reward,
        'mission',
        'UserMission',
        String(userMission!._id),
        entryKeys.missionReward(userMission!._id),
      );
    }
    for (const key of history.pending ?? [])
      await insertProgress([progress(key, 'pending', { startedAt: at(3 * HOUR), claimedAt: at(2 * HOUR) }).record]);
    for (const key of history.started ?? []) await insertProgress([progress(key, 'started', { startedAt: at(30 * 60_000) }).record]);

    for (let session = 0; session < (history.miningMoved ?? 0); session++) {
      const endsAt = at((session * 24 + 10) * HOUR);
      const [mining] = await insertMiningSessions([
        {
          user: user._id,
          coin: coins.GIFT._id,
          amount: stored('240'),
          startedAt: new Date(endsAt.getTime() - 8 * HOUR),
          endsAt,
          movedAt: at((session * 24 + 9) * HOUR),
        },
      ]);
      await credit(user._id, coins.GIFT._id, '240', 'mining', 'MiningSession', String(mining!._id), entryKeys.miningMove(mining!._id));
    }
    if (history.miningRunning) {
      await insertMiningSessions([
        {
          user: user._id,
          coin: coins.GIFT._id,
          amount: stored('240'),
          startedAt: at(3 * HOUR),
          endsAt: new Date(now.getTime() + 5 * HOUR),
          running: true,
        },
      ]);
    }

    if (history.gift) {
      await credit(
        user._id,
        coins.GIFT._id,
        history.gift,
        'gift',
        'User',
        String(user._id),
        `seed-gift:${user._id}`,
        'Thanks for the feedback on the beta',
      );
    }
    if (history.stake) {
      const startedAt = at(2 * DAY);
      const stakeKey = scopedKey(user._id, 'seed-stake');
      const [stake] = await insertStakes([
        {
          user: user._id,
          stakingCoin: giftOffer,
          coin: coins.GIFT._id,
          amount: stored(history.stake),
          duration: 'month',
          profitPercent: '5',
          profit: stored('25'),
          startedAt,
          unlocksAt: new Date(startedAt.getTime() + 30 * DAY),
          idempotencyKey: stakeKey,
        },
      ]);
      await credit(user._id, coins.GIFT._id, history.stake, 'stake', 'Stake', String(stake!._id), entryKeys.stakeLock(stakeKey));
    }
    if (history.withdraw) {
      const wallet = demoAddress(`wallet of ${player.key}`, false);
      await insertWalletLinks([{ address: wallet.raw, user: user._id, network: '-239', linkedAt: at(DAY) }]);
      const [withdrawal] = await insertWithdrawals([
        {
          user: user._id,
          coin: coins.GIFT._id,
          amount: stored(history.withdraw),
          address: wallet.friendly,
          status: 'pending',
          idempotencyKey: scopedKey(user._id, 'seed-withdraw'),
        },
      ]);
      await credit(
        user._id,
        coins.GIFT._id,
        history.withdraw,
        'withdraw',
        'Withdrawal',
        String(withdrawal!._id),
        entryKeys.withdrawalDebit(withdrawal!._id),
      );
    }
  }
}

export interface SeededPlayer {
  id: string;
  telegramId: number;
  firstName: string;
  lastName: string;
  username: string;
}

/** Inserts many plain players at once (for the benchmark): batches of insertMany, no per-player round trips. */
export async function seedPlayers(count: number, batchSize = 1000): Promise<SeededPlayer[]> {
  const first = Math.max((await highestTelegramId()) + 1, 8_000_000_000);
  const seeded: SeededPlayer[] = [];
  for (let start = 0; start < count; start += batchSize) {
    const batch = Array.from({ length: Math.min(batchSize, count - start) }, (_, offset) => {
      const telegramId = first + start + offset;
      return {
        _id: new Types.ObjectId(),
        telegramId,
        firstName: 'Player',
        lastName: String(start + offset + 1),
        name: `Player ${start + offset + 1}`,
        username: `player_${telegramId}`,
        usernameLower: `player_${telegramId}`,
        referralCode: randomBytes(6).toString('base64url'),
      };
    });
    await insertPlayers(batch);
    for (const player of batch)
      seeded.push({
        id: String(player._id),
        telegramId: player.telegramId,
        firstName: player.firstName,
        lastName: player.lastName,
        username: player.username,
      });
  }
  return seeded;
}
