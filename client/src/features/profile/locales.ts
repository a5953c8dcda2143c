import { addTexts } from '../../lib/translator';

// The profile page’s texts: they load with its code, not with the first screen (as the wallet's do).

const profileEn = {
  profile: {
    title: 'Profile',
    settings: 'Settings',
    withdraw: 'Withdraw',
    myWallets: 'My wallets',
    wallet: 'Connected wallet',
    connectWallet: 'Connect wallet',
    help: 'Help',
    inviteFriend: 'Invite a friend',
    figures: {
      rewards: 'Rewards',
      earned: 'Earned',
      withdrawn: 'Withdrawn',
      gifts: 'Gifts',
      missionsCount: 'Missions',
      doneMissionsCount: 'Done missions',
      referrersCount: 'Referrers',
    },
    signOut: 'Sign out',
    signOutEverywhere: 'Sign out everywhere',
    signedOutEverywhere: 'Signed out of the web app on every device',
    signOutEverywhereFailed: 'Could not sign out everywhere, try again',
  },
};

const profileFa: typeof profileEn = {
  profile: {
    title: 'پروفایل',
    settings: 'تنظیمات',
    withdraw: 'برداشت',
    myWallets: 'کیف پول‌های من',
    wallet: 'کیف پول متصل',
    connectWallet: 'اتصال کیف پول',
    help: 'راهنما',
    inviteFriend: 'دعوت از دوستان',
    figures: {
      rewards: 'پاداش‌ها',
      earned: 'کسب‌شده',
      withdrawn: 'برداشت‌شده',
      gifts: 'هدیه‌ها',
      missionsCount: 'ماموریت‌ها',
      doneMissionsCount: 'ماموریت‌های انجام‌شده',
      referrersCount: 'دعوت‌شدگان',
    },
    signOut: 'خروج',
    signOutEverywhere: 'خروج از همه دستگاه‌ها',
    signedOutEverywhere: 'از نسخه وب در همه دستگاه‌ها خارج شدید',
    signOutEverywhereFailed: 'خروج از همه دستگاه‌ها انجام نشد، دوباره تلاش کنید',
  },
};

addTexts('en', profileEn);
addTexts('fa', profileFa);
