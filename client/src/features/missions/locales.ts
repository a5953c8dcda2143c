import { addTexts } from '../../lib/translator';

// The mission pages’ texts: they load with its code, not with the first screen (as the wallet's do). The first screen's
// `mission.endsIn` stays with the app's texts.

const missionEn = {
  mission: {
    title: 'Mission',
    reward: 'Reward',
    notFound: 'This mission does not exist or is closed.',
    needs: {
      auto: 'Tap “{{claim}}” to receive the reward.',
      time: 'Tap “{{go}}”, then “{{claim}}” after {{minutes, number}} min.',
      instagram: 'Follow on Instagram with “{{go}}”, then tap “{{claim}}” after {{minutes, number}} min.',
      telegram: 'Join the channel or group with “{{go}}”, then tap “{{claim}}”: we check that you joined.',
      youtube: 'Watch the video with “{{go}}” and type the secret code said in it.',
      manual: 'Do the task with “{{go}}”, then “{{claim}}”: an operator reviews it.',
      boost: 'Boost the channel with “{{go}}” (Telegram Premium gives boosts), then tap “{{claim}}”: we check your boost with Telegram.',
      homeScreen: 'Add the app to your home screen with “{{go}}”, then tap “{{claim}}” after {{minutes, number}} min.',
      emojiStatus:
        'Set the emoji as your status with “{{go}}” (Telegram Premium), then tap “{{claim}}”: we check your status with Telegram.',
      story: 'Share the story with “{{go}}”, then tap “{{claim}}” after {{minutes, number}} min.',
    },
    needsNewerTelegram: 'This mission needs Telegram {{version}} or newer. Update Telegram and open the app there.',
    telegramCheckFailed: 'Telegram could not confirm this right now. Try again in a few minutes.',
    code: 'Secret code',
    claimIn: 'Claim in {{time}}',
    done: 'Done! +{{reward, amount}} {{symbol}}',
    credited: '+{{reward, amount}} {{symbol}} received',
    pending: 'Waiting for review',
    sentForReview: 'Sent for review',
    rejected: 'Rejected: {{reason}}',
    rejectedNoReason: 'Rejected. Tap “{{go}}” to try again.',
    tryAgain: 'Tap “{{go}}” to try again.',
    proof: {
      title: 'Proof for the review',
      link: 'Link to your post',
      text: 'What you did',
      image: 'Screenshot',
      uploading: 'Uploading…',
      change: 'Change the screenshot',
      badLink: 'Paste the whole link of your post, starting with https://',
      tooLarge: 'The picture is larger than 8 MB',
      notPicture: 'Choose a JPEG, PNG, WebP or GIF picture',
      tooManyPixels: 'The picture is larger than 16 megapixels: send a screenshot',
      notStarted: 'Start this mission before adding a screenshot',
      quota: 'You have sent the most pictures for today (20, or 40 MB): send more tomorrow',
      failed: 'The picture could not be sent. Try again.',
    },
    full: 'Every place in this mission has been taken.',
    daily: 'Daily',
    doneToday: 'Done for today: +{{reward, amount}} {{symbol}}. It comes back tomorrow.',
  },
};

const missionFa: typeof missionEn = {
  mission: {
    title: 'ماموریت',
    reward: 'پاداش',
    notFound: 'این ماموریت وجود ندارد یا بسته شده است.',
    needs: {
      auto: 'برای دریافت پاداش روی «{{claim}}» بزنید.',
      time: 'روی «{{go}}» بزنید و پس از {{minutes, number}} دقیقه «{{claim}}» را بزنید.',
      instagram: 'با «{{go}}» در اینستاگرام دنبال کنید و پس از {{minutes, number}} دقیقه «{{claim}}» را بزنید.',
      telegram: 'با «{{go}}» به کانال یا گروه بپیوندید و سپس «{{claim}}» را بزنید: عضویت شما بررسی می‌شود.',
      youtube: 'با «{{go}}» ویدیو را ببینید و کد مخفی گفته‌شده در آن را وارد کنید.',
      manual: 'با «{{go}}» کار را انجام دهید و سپس «{{claim}}» را بزنید: یک اپراتور آن را بررسی می‌کند.',
      boost: 'با «{{go}}» کانال را بوست کنید (بوست با تلگرام پریمیوم است) و سپس «{{claim}}» را بزنید: بوست شما از تلگرام پرسیده می‌شود.',
      homeScreen: 'با «{{go}}» برنامه را به صفحهٔ اصلی گوشی اضافه کنید و پس از {{minutes, number}} دقیقه «{{claim}}» را بزنید.',
      emojiStatus:
        'با «{{go}}» این اموجی را وضعیت خود کنید (تلگرام پریمیوم) و سپس «{{claim}}» را بزنید: وضعیت شما از تلگرام پرسیده می‌شود.',
      story: 'با «{{go}}» استوری را منتشر کنید و پس از {{minutes, number}} دقیقه «{{claim}}» را بزنید.',
    },
    needsNewerTelegram: 'این ماموریت به تلگرام {{version}} یا تازه‌تر نیاز دارد. تلگرام را به‌روز کنید و برنامه را در آن باز کنید.',
    telegramCheckFailed: 'تلگرام الان نتوانست این را تأیید کند. چند دقیقه دیگر دوباره تلاش کنید.',
    code: 'کد مخفی',
    claimIn: 'دریافت تا {{time}} دیگر',
    done: 'انجام شد! \u2066+{{reward, amount}} {{symbol}}\u2069',
    credited: '\u2066+{{reward, amount}} {{symbol}}\u2069 دریافت شد',
    pending: 'در انتظار بررسی',
    sentForReview: 'برای بررسی ارسال شد',
    rejected: 'رد شد: {{reason}}',
    rejectedNoReason: 'رد شد. برای تلاش دوباره «{{go}}» را بزنید.',
    tryAgain: 'برای تلاش دوباره «{{go}}» را بزنید.',
    proof: {
      title: 'مدرک برای بررسی',
      link: 'پیوند پست شما',
      text: 'چه کاری انجام دادید',
      image: 'اسکرین‌شات',
      uploading: 'در حال ارسال…',
      change: 'تغییر اسکرین‌شات',
      badLink: 'پیوند کامل پست خود را، که با https:// شروع می‌شود، بچسبانید',
      tooLarge: 'حجم تصویر بیشتر از ۸ مگابایت است',
      notPicture: 'یک تصویر JPEG، PNG، WebP یا GIF انتخاب کنید',
      tooManyPixels: 'تصویر بزرگ‌تر از ۱۶ مگاپیکسل است: یک اسکرین‌شات بفرستید',
      notStarted: 'پیش از افزودن اسکرین‌شات، این ماموریت را شروع کنید',
      quota: 'امروز بیشترین تعداد تصویر را فرستاده‌اید (۲۰ تصویر یا ۴۰ مگابایت): فردا بیشتر بفرستید',
      failed: 'تصویر ارسال نشد. دوباره تلاش کنید.',
    },
    full: 'ظرفیت این ماموریت پر شده است.',
    daily: 'روزانه',
    doneToday: 'امروز انجام شد: \u2066+{{reward, amount}} {{symbol}}\u2069. فردا دوباره می‌آید.',
  },
};

addTexts('en', missionEn);
addTexts('fa', missionFa);
