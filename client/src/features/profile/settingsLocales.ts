import { addTexts } from '../../lib/translator';

// The settings page's texts (the sign-in page's language choice reads them too): they load with their code, not with the
// first screen (as the wallet's do).

const settingsEn = {
  settings: {
    title: 'Settings',
    language: 'Language',
    theme: 'Theme',
    themes: { dark: 'Dark', light: 'Light', system: 'System' },
    display: 'Display',
    fullscreen: 'Full screen',
    window: 'Window',
    languages: { en: 'English', fa: 'فارسی' },
    reminders: {
      title: 'Reminders from the bot',
      noPermission: 'The bot cannot write to you yet: open it in Telegram and tap Start to get reminders.',
      kinds: {
        'mining-ready': 'Mining finished',
        'streak-ending': 'Streak about to break',
        'stake-unlocked': 'Stake unlocked',
        'prize-won': 'League prize won',
        'withdrawal-paid': 'Withdrawal paid',
      },
    },
  },
};

const settingsFa: typeof settingsEn = {
  settings: {
    title: 'تنظیمات',
    language: 'زبان',
    theme: 'پوسته',
    themes: { dark: 'تیره', light: 'روشن', system: 'سیستم' },
    display: 'نمایش',
    fullscreen: 'تمام‌صفحه',
    window: 'پنجره',
    languages: { en: 'English', fa: 'فارسی' },
    reminders: {
      title: 'یادآوری‌های ربات',
      noPermission: 'ربات هنوز نمی‌تواند به شما پیام بدهد: آن را در تلگرام باز کنید و «شروع» را بزنید تا یادآوری‌ها برسند.',
      kinds: {
        'mining-ready': 'پایان استخراج',
        'streak-ending': 'زنجیره در خطر قطع شدن',
        'stake-unlocked': 'آزاد شدن استیک',
        'prize-won': 'بردن جایزهٔ لیگ',
        'withdrawal-paid': 'پرداخت برداشت',
      },
    },
  },
};

addTexts('en', settingsEn);
addTexts('fa', settingsFa);
