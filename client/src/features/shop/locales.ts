import { addTexts } from '../../lib/translator';

// The shop’s texts: they load with its code, not with the first screen (as the wallet's do).

const shopEn = {
  shop: {
    title: 'Boosts shop',
    intro: 'Boosts bought with Telegram Stars: a multiplier for your next mining session, an extra session, a streak freeze.',
    needsTelegram: 'Purchases need Telegram: open the app in Telegram to pay with Stars.',
    mine: 'My boosts',
    none: 'You have no boosts yet.',
    waitingMultiplier: '×{{factor}} for your next mining session',
    freezes: 'Streak freezes: {{count, number}}',
    empty: 'Nothing is on sale right now.',
    buy: 'Buy for {{stars}} Stars',
    buyAria: 'Buy {{title}} for {{stars}} Stars',
    gives: {
      multiplier: '×{{factor}} on your next mining session',
      extraSession: 'One extra mining session, ready to move at once',
      streakFreeze: 'Keeps your streak through one missed day',
    },
    paid: 'Paid: your boost arrives in a moment',
    pending: 'Payment is being processed: your boost arrives once Telegram confirms it',
    cancelled: 'Purchase cancelled',
    failed: 'The payment did not go through',
  },
};

const shopFa: typeof shopEn = {
  shop: {
    title: 'فروشگاه تقویت‌کننده',
    intro: 'تقویت‌کننده‌هایی که با ستارهٔ تلگرام خریده می‌شوند: ضریب برای نوبت بعدی استخراج، یک نوبت اضافه، محافظ زنجیره.',
    needsTelegram: 'خرید به تلگرام نیاز دارد: برنامه را در تلگرام باز کنید تا با ستاره بپردازید.',
    mine: 'تقویت‌کننده‌های من',
    none: 'هنوز تقویت‌کننده‌ای ندارید.',
    waitingMultiplier: '×{{factor}} برای نوبت بعدی استخراج',
    freezes: 'محافظ زنجیره: {{count, number}}',
    empty: 'اکنون چیزی برای فروش نیست.',
    buy: 'خرید با {{stars}} ستاره',
    buyAria: 'خرید {{title}} با {{stars}} ستاره',
    gives: {
      multiplier: '×{{factor}} در نوبت بعدی استخراج',
      extraSession: 'یک نوبت استخراج اضافه، آمادهٔ انتقال در همان لحظه',
      streakFreeze: 'زنجیرهٔ شما را در یک روز جاافتاده نگه می‌دارد',
    },
    paid: 'پرداخت شد: تقویت‌کننده‌تان به‌زودی می‌رسد',
    pending: 'پرداخت در حال انجام است: پس از تأیید تلگرام تقویت‌کننده می‌رسد',
    cancelled: 'خرید لغو شد',
    failed: 'پرداخت انجام نشد',
  },
};

addTexts('en', shopEn);
addTexts('fa', shopFa);
