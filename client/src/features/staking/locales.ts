import { addTexts } from '../../lib/translator';

// The staking pages’ texts: they load with its code, not with the first screen (as the wallet's do).

const stakingEn = {
  staking: {
    title: 'Staking',
    offers: 'Offers',
    noOffers: 'No staking offers yet.',
    stake: 'Stake',
    positions: 'My stakes',
    noPositions: 'You have no stakes yet.',
    durations: { week: '1 week', month: '1 month', threeMonths: '3 months', sixMonths: '6 months', year: '1 year' },
    profitPercent: '{{percent, amount}}% profit',
    amount: 'Amount',
    balance: 'Balance: {{amount, amount}} {{symbol}}',
    max: 'Max',
    duration: 'Duration',
    bounds: 'From {{min, amount}} to {{max, amount}} {{symbol}}',
    profit: 'Profit',
    payout: 'Payout',
    unlocks: 'Unlocks',
    confirm: 'Confirm stake',
    staked: 'Staked {{amount, amount}} {{symbol}}',
    unlocksIn: 'Unlocks in {{time}}',
    unlocked: 'Unlocked',
    claim: 'Claim',
    claimed: 'Claimed',
    claimedToast: 'Claimed {{amount, amount}} {{symbol}}',
    enterAmount: 'Enter an amount to see your profit',
    confirmTitle: 'Lock your coins?',
    confirmText: '{{amount, amount}} {{symbol}} stay locked for {{duration}}. On {{date}} you can claim {{total, amount}} {{symbol}}.',
    lock: 'Stake now',
    cancel: 'Cancel',
    notFound: 'This staking offer does not exist or is closed.',
  },
};

const stakingFa: typeof stakingEn = {
  staking: {
    title: 'استیکینگ',
    offers: 'پیشنهادها',
    noOffers: 'هنوز پیشنهاد استیکینگی وجود ندارد.',
    stake: 'استیک',
    positions: 'استیک‌های من',
    noPositions: 'هنوز استیکی ندارید.',
    durations: { week: '۱ هفته', month: '۱ ماه', threeMonths: '۳ ماه', sixMonths: '۶ ماه', year: '۱ سال' },
    profitPercent: '{{percent, amount}}٪ سود',
    amount: 'مقدار',
    balance: 'موجودی: \u2066{{amount, amount}} {{symbol}}\u2069',
    max: 'حداکثر',
    duration: 'مدت',
    bounds: 'از \u2066{{min, amount}}\u2069 تا \u2066{{max, amount}} {{symbol}}\u2069',
    profit: 'سود',
    payout: 'پرداخت نهایی',
    unlocks: 'آزادسازی',
    confirm: 'تأیید استیک',
    staked: '\u2066{{amount, amount}} {{symbol}}\u2069 استیک شد',
    unlocksIn: 'آزادسازی تا {{time}} دیگر',
    unlocked: 'آزاد شده',
    claim: 'دریافت',
    claimed: 'دریافت شد',
    claimedToast: '\u2066{{amount, amount}} {{symbol}}\u2069 دریافت شد',
    enterAmount: 'برای دیدن سود، مقداری وارد کنید',
    confirmTitle: 'سکه‌ها قفل شوند؟',
    confirmText:
      '\u2066{{amount, amount}} {{symbol}}\u2069 به مدت {{duration}} قفل می‌ماند. در {{date}} می‌توانید \u2066{{total, amount}} {{symbol}}\u2069 دریافت کنید.',
    lock: 'استیک کن',
    cancel: 'انصراف',
    notFound: 'این پیشنهاد استیکینگ وجود ندارد یا بسته شده است.',
  },
};

addTexts('en', stakingEn);
addTexts('fa', stakingFa);
