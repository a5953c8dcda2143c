import type { Language, OperatorAlertKind } from '@gift/shared';

/** What an alert's text names, per kind (amounts and reasons as strings, counts as numbers). */
export interface AlertFacts {
  claims: { count: number; waiting: number; until: string };
  approvals:
    | { what: 'gift'; amount: string; symbol: string; by: string }
    | { what: 'grant'; username: string; permissions: string[]; by: string }
    /** A change that loosens a money brake: the resource it waits on and the record's name (App Config: which reward). */
    | { what: 'change'; resource: string; name: string; by: string };
  'payouts-stopped': { reason: string; paused: boolean };
  'hot-wallet': { symbol: string; balance: string; threshold: string; pending: string; why: 'threshold' | 'pending' };
  'broadcast-finished': { title: string; audience: number; sent: number; failed: number; blocked: number; unknown: number };
  /** A Star payment Telegram lists that no purchase could take (shop/starsReconcile.service.ts). */
  'stars-unmatched': { stars: number; chargeId: string; why: 'payload' | 'paid' };
}

/** Latin digits (and a decimal point between digits) in Persian. */
function persianDigits(text: string): string {
  return text.replace(/(\d)\.(\d)/g, '$1٫$2').replace(/\d/g, (digit) => '۰۱۲۳۴۵۶۷۸۹'[Number(digit)]!);
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

type ChangeFacts = Extract<AlertFacts['approvals'], { what: 'change' }>;
/** A brake change's record, and where in the console it is decided, per resource: in English and in Persian. */
const CHANGED: Record<'en' | 'fa', Record<string, (name: string) => [string, string]>> = {
  en: {
    missions: (name) => [`the reward of mission "${name}"`, 'Missions'],
    'app-config': (name) => [
      { referral: 'the referral reward', streakMilestones: 'the streak milestones', mining: 'mining' }[name] ?? name,
      'App Config',
    ],
    'gift-coins': (name) => [`the brakes of coin ${name}`, 'Gift Coins'],
    'staking-coins': (name) => [`the staking offer of ${name}`, 'Staking Coins'],
    'star-offers': (name) => [`the Stars shop item "${name}"`, 'Stars shop'],
    leagues: (name) => [`the prizes of league week ${name}`, 'League prizes'],
  },
  fa: {
    missions: (name) => [`پاداش مأموریت «${name}»`, 'مأموریت‌ها'],
    'app-config': (name) => [
      { referral: 'پاداش دعوت', streakMilestones: 'پاداش‌های پیاپی', mining: 'استخراج' }[name] ?? name,
      'تنظیمات برنامه',
    ],
    'gift-coins': (name) => [`ترمزهای سکهٔ ${name}`, 'سکه‌های هدیه'],
    'staking-coins': (name) => [`پیشنهاد استیک ${name}`, 'سکه‌های استیک'],
    'star-offers': (name) => [`کالای فروشگاه ستاره «${name}»`, 'فروشگاه ستاره'],
    leagues: (name) => [`جایزه‌های هفتهٔ لیگ ${persianDigits(name)}`, 'جایزه‌های لیگ'],
  },
};

/** A brake change's record and where it is decided, in this language (the resource's name for one not listed). */
const changed = (language: 'en' | 'fa', { resource, name }: ChangeFacts) => CHANGED[language][resource]?.(name) ?? [name, resource];

const ENGLISH: { [K in OperatorAlertKind]: (facts: AlertFacts[K]) => string } = {
  claims: ({ count, waiting }) =>
    `${count} new Manual ${plural(count, 'claim waits', 'claims wait')} for review (${waiting} waiting in all). Open Reviews in the console.`,
  approvals: (facts) => {
    if (facts.what === 'gift')
      return `A gift of ${facts.amount} ${facts.symbol}, asked by ${facts.by}, waits for your approval (Gifts in the console).`;
    if (facts.what === 'grant')
      return `${facts.by} asked for ${facts.permissions.join(', ')} for ${facts.username}: it waits for your approval (Accounts in the console).`;
    const [what, where] = changed('en', facts);
    return `${facts.by} asked to change ${what}, loosening a money brake: it waits for your approval (${where} in the console).`;
  },
  'payouts-stopped': ({ reason, paused }) =>
    paused ? 'Payouts are paused by an operator: approved withdrawals wait.' : `Payouts stopped: ${reason}. Approved withdrawals wait.`,
  'hot-wallet': ({ symbol, balance, threshold, pending, why }) =>
    why === 'threshold'
      ? `The hot wallet is low: it holds ${balance} ${symbol}, under the ${threshold} ${symbol} threshold. Top it up.`
      : `The hot wallet holds ${balance} ${symbol}, less than the ${pending} ${symbol} of withdrawals not yet paid. Top it up, or they wait.`,
  'broadcast-finished': ({ title, audience, sent, failed, blocked, unknown }) =>
    `Broadcast "${title}" finished: ${sent} sent, ${failed} failed, ${blocked} blocked the bot${unknown ? `, ${unknown} unknown` : ''}, of ${audience}.`,
  'stars-unmatched': ({ stars, chargeId, why }) =>
    `A payment of ${stars} Stars (charge ${chargeId}) ${why === 'payload' ? 'names no purchase' : 'paid an invoice already paid'}: nothing was granted. Check it, and refund it in Telegram if due.`,
};

const PERSIAN: { [K in OperatorAlertKind]: (facts: AlertFacts[K]) => string } = {
  claims: ({ count, waiting }) =>
    persianDigits(`${count} درخواست دستی تازه منتظر بررسی است (در مجموع ${waiting} در انتظار). بخش بررسی‌ها را در کنسول باز کنید.`),
  approvals: (facts) => {
    if (facts.what === 'gift')
      return `هدیه‌ای به مقدار ${persianDigits(facts.amount)} ${facts.symbol} که ${facts.by} درخواست کرده منتظر تأیید شماست (هدیه‌ها در کنسول).`;
    if (facts.what === 'grant')
      return `${facts.by} برای ${facts.username} دسترسی ${facts.permissions.join('، ')} خواسته است و منتظر تأیید شماست (حساب‌ها در کنسول).`;
    const [what, where] = changed('fa', facts);
    return `${facts.by} تغییر ${what} را خواسته که یک ترمز پولی را شل می‌کند و منتظر تأیید شماست (${where} در کنسول).`;
  },
  'payouts-stopped': ({ reason, paused }) =>
    paused
      ? 'پرداخت‌ها را یک اپراتور متوقف کرده است: برداشت‌های تأییدشده منتظر می‌مانند.'
      : `پرداخت‌ها متوقف شد: ${reason}. برداشت‌های تأییدشده منتظر می‌مانند.`,
  'hot-wallet': ({ symbol, balance, threshold, pending, why }) =>
    why === 'threshold'
      ? persianDigits(`موجودی کیف پول داغ کم است: ${balance} ${symbol}، کمتر از آستانهٔ ${threshold} ${symbol}. آن را شارژ کنید.`)
      : persianDigits(
          `کیف پول داغ ${balance} ${symbol} دارد، کمتر از ${pending} ${symbol} برداشت‌های پرداخت‌نشده. آن را شارژ کنید، وگرنه منتظر می‌مانند.`,
        ),
  'broadcast-finished': ({ title, audience, sent, failed, blocked, unknown }) =>
    `پیام همگانی «${title}» تمام شد: ${persianDigits(
      `${sent} ارسال شد، ${failed} ناموفق، ${blocked} ربات را مسدود کرده‌اند${unknown ? `، ${unknown} نامعلوم` : ''}، از ${audience}`,
    )}.`,
  'stars-unmatched': ({ stars, chargeId, why }) =>
    `پرداختی به مبلغ ${persianDigits(String(stars))} ستاره (شناسهٔ ${chargeId}) ${why === 'payload' ? 'به هیچ خریدی مربوط نیست' : 'صورت‌حسابی را پرداخته که قبلاً پرداخت شده بود'}: چیزی داده نشد. آن را بررسی کنید و در صورت لزوم در تلگرام بازپرداخت کنید.`,
};

/** An alert's text in the operator's language. */
export function alertText<K extends OperatorAlertKind>(language: Language, kind: K, facts: AlertFacts[K]): string {
  return (language === 'fa' ? PERSIAN : ENGLISH)[kind](facts);
}

/** The bot's answer to `/start op-<code>`: linked, or refused (a used, expired or unknown code). */
export function linkAnswer(language: Language, linked: { username: string } | null): string {
  if (language === 'fa')
    return linked
      ? `این گفتگو اکنون هشدارهای کنسول را برای ${linked.username} دریافت می‌کند. در کنسول، در «حساب من»، انتخاب کنید کدام هشدارها را بگیرید.`
      : 'این پیوند استفاده شده یا منقضی شده است. در کنسول، در «حساب من»، پیوند تازه‌ای بگیرید.';
  return linked
    ? `This chat now gets the console's alerts for ${linked.username}. Choose which on My account in the console.`
    : 'This link was already used or has expired. Ask for a new one on My account in the console.';
}
