import type { Language } from '@gift/shared';

/** The facts each notification names; amounts are decimal strings. */
export interface NotificationFacts {
  'friend-joined': { friend: string; amount?: string; symbol?: string };
  'friend-qualified': { friend: string; amount?: string; symbol?: string };
  /**
   * `missionId`: the mission, whose page the message's button opens. `held`: the player was frozen or banned at the approval,
   * so the reward is held (owed) until their account is active again.
   */
  'mission-approved': { mission: string; missionId?: string; amount?: string; symbol?: string; held?: 'frozen' | 'banned' };
  /** reasonFa: a canned reason's Persian, read by a Persian player in place of `reason`. */
  'mission-rejected': { mission: string; missionId?: string; reason: string; reasonFa?: string };
  /** explorerUrl: the transaction on the configured explorer (absent on messages queued before it was added). */
  'withdrawal-paid': { amount: string; symbol: string; txHash: string; explorerUrl?: string };
  'withdrawal-rejected': { amount: string; symbol: string; reason: string };
  'stake-unlocked': { amount: string; symbol: string; total: string; stakeId: string };
  'mining-ready': { amount: string; symbol: string; sessionId: string };
  /** answer: what the operator wrote, sent as written. */
  'appeal-answered': { answer: string };
  /** days: the streak that breaks at the end of `day` (YYYY-MM-DD, App Config timezone) unless a daily mission is done that day. */
  'streak-ending': { days: number; day: string };
  /** A league prize paid: the player's rank in the week's league and what was credited. */
  'prize-won': { amount: string; symbol: string; rank: number };
}
export type NotificationEvent = keyof NotificationFacts;

/** How much of a name a player chose a message repeats. */
const PLAYER_TEXT_MAX = 32;

/**
 * Text a player chose (a Telegram name, up to 128 characters of anything), made harmless for a message
 * from the product's own bot: letters, digits, spaces, `-`, `_` and `'` only (no `.`, `/`, `:` or `@`,
 * so Telegram finds no link, mention, hashtag or command in it), at most 32 characters, and quoted,
 * so it cannot pass for the bot's own words.
 */
function quotedPlayerText(text: string, language: Language): string {
  const cleaned = text
    .normalize('NFKC')
    // variation selectors are marks, but they only dress the emoji removed here
    .replace(/[\uFE00-\uFE0F]/gu, '')
    .replace(/[^\p{L}\p{M}\p{N}\s_'-]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  const characters = Array.from(cleaned);
  let short = cleaned;
  if (characters.length > PLAYER_TEXT_MAX) {
    const cut = characters.slice(0, PLAYER_TEXT_MAX + 1).join('');
    // at the last whole word, unless that leaves too little
    const lastSpace = cut.lastIndexOf(' ');
    short = `${(lastSpace > PLAYER_TEXT_MAX / 2 ? cut.slice(0, lastSpace) : Array.from(cut).slice(0, PLAYER_TEXT_MAX).join('')).trim()}…`;
  }
  if (!short) return language === 'fa' ? 'یک دوست' : 'A friend';
  return language === 'fa' ? `«${short}»` : `“${short}”`;
}

/** A whole number in Persian digits, for the counts a Persian text names (amounts keep their own digits, as in the app's links). */
function persianDigits(value: number): string {
  return String(value).replace(/\d/g, (digit) => String.fromCharCode(0x06f0 + Number(digit)));
}

/** Persian text reads right to left; numbers, symbols and links keep their own direction inside it. */
const TEXTS: { [L in Language]: { [E in NotificationEvent]: (facts: NotificationFacts[E]) => string } & { open: string } } = {
  en: {
    'friend-joined': (f) =>
      `🎉 ${quotedPlayerText(f.friend, 'en')} joined with your invite link.${f.amount ? ` You earned ${f.amount} ${f.symbol}.` : ''}`,
    'friend-qualified': (f) =>
      `⭐ ${quotedPlayerText(f.friend, 'en')} qualified as your friend.${f.amount ? ` You earned ${f.amount} ${f.symbol}.` : ''}`,
    'mission-approved': (f) =>
      `✅ Your mission "${f.mission}" was approved.${f.amount ? ` You earned ${f.amount} ${f.symbol}.` : ''}${
        f.held
          ? `\nYour account is ${f.held === 'banned' ? 'blocked' : 'frozen'}: the reward is held and credited once it is active again.`
          : ''
      }`,
    'mission-rejected': (f) =>
      `❌ Your mission "${f.mission}" was not approved.${f.reason ? `\nReason: ${f.reason}` : ''}\nYou can try it again.`,
    'withdrawal-paid': (f) => `💸 Your withdrawal of ${f.amount} ${f.symbol} was sent.\nTransaction: ${f.explorerUrl ?? f.txHash}`,
    'withdrawal-rejected': (f) =>
      `↩️ Your withdrawal of ${f.amount} ${f.symbol} was rejected.${f.reason ? `\nReason: ${f.reason}` : ''}\n${f.amount} ${f.symbol} went back to your balance.`,
    'stake-unlocked': (f) => `🔓 Your stake of ${f.amount} ${f.symbol} has unlocked. Claim ${f.total} ${f.symbol} in the app.`,
    'mining-ready': (f) => `⛏️ Mining finished: ${f.amount} ${f.symbol} is ready to move to your wallet.`,
    'appeal-answered': (f) => `📨 An operator answered your appeal:\n${f.answer}`,
    'streak-ending': (f) => `🔥 Your ${f.days}-day streak ends at midnight. Do a daily mission today to keep it.`,
    'prize-won': (f) => `🏆 You finished #${f.rank} in this week's league and won ${f.amount} ${f.symbol}.`,
    open: 'Open the app',
  },
  fa: {
    'friend-joined': (f) =>
      `🎉 ${quotedPlayerText(f.friend, 'fa')} با لینک دعوت شما عضو شد.${f.amount ? ` شما ${f.amount} ${f.symbol} دریافت کردید.` : ''}`,
    'friend-qualified': (f) =>
      `⭐ ${quotedPlayerText(f.friend, 'fa')} به‌عنوان دوست شما واجد شرایط شد.${f.amount ? ` شما ${f.amount} ${f.symbol} دریافت کردید.` : ''}`,
    'mission-approved': (f) =>
      `✅ ماموریت «${f.mission}» شما تأیید شد.${f.amount ? ` شما ${f.amount} ${f.symbol} دریافت کردید.` : ''}${
        f.held
          ? `\nحساب شما ${f.held === 'banned' ? 'مسدود شده است' : 'مسدود موقت است'}: این پاداش نگه داشته می‌شود و پس از فعال شدن دوبارهٔ حساب به موجودی شما اضافه می‌شود.`
          : ''
      }`,
    'mission-rejected': (f) =>
      `❌ ماموریت «${f.mission}» شما تأیید نشد.${f.reasonFa || f.reason ? `\nدلیل: ${f.reasonFa || f.reason}` : ''}\nمی‌توانید دوباره امتحان کنید.`,
    'withdrawal-paid': (f) => `💸 برداشت ${f.amount} ${f.symbol} شما ارسال شد.\nتراکنش: ${f.explorerUrl ?? f.txHash}`,
    'withdrawal-rejected': (f) =>
      `↩️ برداشت ${f.amount} ${f.symbol} شما رد شد.${f.reason ? `\nدلیل: ${f.reason}` : ''}\n${f.amount} ${f.symbol} به موجودی شما برگشت.`,
    'stake-unlocked': (f) => `🔓 استیک ${f.amount} ${f.symbol} شما از قفل آزاد شد. ${f.total} ${f.symbol} را در برنامه دریافت کنید.`,
    'mining-ready': (f) => `⛏️ استخراج تمام شد: ${f.amount} ${f.symbol} آماده انتقال به کیف پول شماست.`,
    'appeal-answered': (f) => `📨 یک اپراتور به درخواست بازبینی شما پاسخ داد:\n${f.answer}`,
    'streak-ending': (f) =>
      `🔥 زنجیرهٔ ${persianDigits(f.days)} روزهٔ شما نیمه‌شب تمام می‌شود. برای نگه داشتن آن، امروز یک ماموریت روزانه انجام دهید.`,
    'prize-won': (f) => `🏆 شما در لیگ این هفته رتبهٔ ${persianDigits(f.rank)} را گرفتید و ${f.amount} ${f.symbol} بردید.`,
    open: 'باز کردن برنامه',
  },
};

export function notificationText<E extends NotificationEvent>(language: Language, event: E, facts: NotificationFacts[E]): string {
  const render = TEXTS[language][event] as (facts: NotificationFacts[E]) => string;
  return render(facts);
}

export function openAppLabel(language: Language): string {
  return TEXTS[language].open;
}
