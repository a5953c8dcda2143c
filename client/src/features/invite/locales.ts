import { addTexts } from '../../lib/translator';

// The invite page’s texts: they load with its code, not with the first screen (as the wallet's do).

const inviteEn = {
  invite: {
    title: 'Invite a friend',
    intro: 'Share your link. You get {{amount, amount}} {{symbol}} for every friend who joins.',
    introNoReward: 'Share your link with your friends.',
    link: 'Your invite link',
    share: 'Share in Telegram',
    shareToStory: 'Share to story',
    storyLink: 'Join me',
    copy: 'Copy link',
    copied: 'Link Copied',
    reward: 'Reward per friend',
    limit: 'Invite limit used',
    joined: 'Friends joined',
    qualified: 'Friends qualified',
    qualifyMissions: 'A friend earns you the reward once they finish {{count, number}} missions.',
    qualifyDays: 'A friend earns you the reward once they are still playing {{count, number}} days after joining.',
    qualifyEither:
      'A friend earns you the reward once they finish {{missions, number}} missions or are still playing {{days, number}} days after joining.',
    premiumBonus: 'Telegram Premium friends earn you {{percent, number}}% of it.',
    limitValue: '{{used, number}} / {{limit, number}}',
    friends: 'Friends',
    noFriends: 'No friends yet. Share your link!',
    previous: 'Previous',
    next: 'Next',
    page: 'Page {{page, number}} of {{pages, number}}',
  },
};

const inviteFa: typeof inviteEn = {
  invite: {
    title: 'دعوت از دوستان',
    intro: 'لینک خود را به اشتراک بگذارید. برای هر دوستی که بپیوندد \u2066{{amount, amount}} {{symbol}}\u2069 می‌گیرید.',
    introNoReward: 'لینک خود را با دوستانتان به اشتراک بگذارید.',
    link: 'لینک دعوت شما',
    share: 'اشتراک‌گذاری در تلگرام',
    shareToStory: 'اشتراک در استوری',
    storyLink: 'به من بپیوند',
    copy: 'کپی لینک',
    copied: 'لینک کپی شد',
    reward: 'پاداش هر دوست',
    limit: 'سقف دعوت استفاده‌شده',
    joined: 'دوستان پیوسته',
    qualified: 'دوستان واجد شرایط',
    qualifyMissions: 'دوست شما وقتی {{count, number}} ماموریت را انجام دهد، پاداش را برای شما می‌آورد.',
    qualifyDays: 'دوست شما وقتی {{count, number}} روز پس از پیوستن هنوز بازی کند، پاداش را برای شما می‌آورد.',
    qualifyEither:
      'دوست شما وقتی {{missions, number}} ماموریت انجام دهد یا {{days, number}} روز پس از پیوستن هنوز بازی کند، پاداش را برای شما می‌آورد.',
    premiumBonus: 'دوستان تلگرام پرمیوم {{percent, number}}٪ آن را برای شما می‌آورند.',
    limitValue: '{{used, number}} / {{limit, number}}',
    friends: 'دوستان',
    noFriends: 'هنوز دوستی ندارید. لینک خود را به اشتراک بگذارید!',
    previous: 'قبلی',
    next: 'بعدی',
    page: 'صفحهٔ {{page, number}} از {{pages, number}}',
  },
};

addTexts('en', inviteEn);
addTexts('fa', inviteFa);
