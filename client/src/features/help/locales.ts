import { addTexts } from '../../lib/translator';

// The help page’s texts: they load with its code, not with the first screen (as the wallet's do). The first screen's
// `help.appealLink` stays with the app's texts.

const helpEn = {
  help: {
    title: 'Help',
    faq: 'Questions and answers',
    noFaq: 'No questions written yet.',
    contact: 'Write to us',
    appealTitle: 'Appeal',
    appealIntro:
      'Think this decision is wrong? Tell the operators what happened: they read every appeal and answer here and in the bot. You can send one appeal.',
    appealLabel: 'Your appeal',
    appealHint: '{{min, number}} to {{max, number}} characters',
    tooShort: 'Write at least {{min, number}} characters: what happened, and why the decision should change',
    send: 'Send the appeal',
    sentOn: 'Sent {{date}}',
    waiting: 'An operator will answer here and in the bot.',
    answer: "The operators' answer",
  },
};

const helpFa: typeof helpEn = {
  help: {
    title: 'راهنما',
    faq: 'پرسش و پاسخ',
    noFaq: 'هنوز پرسشی نوشته نشده است.',
    contact: 'برای ما بنویسید',
    appealTitle: 'درخواست بازبینی',
    appealIntro:
      'فکر می‌کنید این تصمیم اشتباه است؟ به اپراتورها بگویید چه شد: آن‌ها همهٔ درخواست‌ها را می‌خوانند و همین‌جا و در ربات پاسخ می‌دهند. یک درخواست می‌توانید بفرستید.',
    appealLabel: 'درخواست شما',
    appealHint: '{{min, number}} تا {{max, number}} نویسه',
    tooShort: 'دست‌کم {{min, number}} نویسه بنویسید: چه شد و چرا تصمیم باید تغییر کند',
    send: 'فرستادن درخواست',
    sentOn: 'فرستاده‌شده {{date}}',
    waiting: 'یک اپراتور همین‌جا و در ربات پاسخ می‌دهد.',
    answer: 'پاسخ اپراتورها',
  },
};

addTexts('en', helpEn);
addTexts('fa', helpFa);
