// A banned player's appeal in a real Chromium, inside a recording Telegram webview: sent once from the app, answered by an
// operator in the console's Appeals queue (no Delete: an appeal stays on record), read in the app and delivered by the bot (the
// Bot API stand-in), in English and in Persian; the sent and the answered appeal in Telegram's dark and light schemes at 390 px
// and once at 360 and 320 px. The Help page (the operators' questions and the contact) the same ways, from Profile.
import type { Locator, Page } from 'playwright-core';
import { AppConfigModel } from '../server/src/modules/config/appConfig.model';
import { getAppConfig } from '../server/src/modules/config/config.service';
import { FaqModel } from '../server/src/modules/help/help.models';
import { setPlayerStatus } from '../server/src/modules/users/playerStatus.service';
import { UserModel } from '../server/src/modules/users/user.model';
import { startBotApiStandIn } from '../server/test/botApiStandIn';
import { TEST_BOT_TOKEN } from '../server/test/helpers';
import { useBotRuntime, useProduct } from './fixture';
import { DESKTOP, PHONE, TELEGRAM_PALETTES, fits, lookEveryWay, shot } from './support';

jest.setTimeout(240_000);

const PLAYERS = { en: 6_400_001, fa: 6_400_002 } as const;

const product = useProduct({
  standIn: () => startBotApiStandIn(TEST_BOT_TOKEN),
  telegram: true,
  operators: [{ username: 'arbiter', permissions: ['*'] }],
  env: (standIn) => ({ TELEGRAM_API_ROOT: standIn.apiRoot }),
  before: async () => {
    // the operators' questions, in both languages, and where to write
    await FaqModel.create([
      {
        question: 'Why was my account closed?',
        answer: 'One account per person: accounts that share a wallet or a phone are closed.',
        fa: { question: 'چرا حساب من بسته شد؟', answer: 'هر نفر یک حساب: حساب‌هایی که یک کیف پول یا یک گوشی دارند بسته می‌شوند.' },
        order: 1,
      },
      {
        question: 'How long does an answer take?',
        answer: 'An operator answers within two days.',
        fa: { question: 'پاسخ چقدر طول می‌کشد؟', answer: 'یک اپراتور ظرف دو روز پاسخ می‌دهد.' },
        order: 2,
      },
    ]);
    await getAppConfig();
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { supportContact: 'https://t.me/GiftSupport' } });
    for (const language of ['en', 'fa'] as const) {
      const telegramId = PLAYERS[language];
      const player = await UserModel.create({
        telegramId,
        name: `Banned ${language}`,
        firstName: `Banned ${language}`,
        referralCode: `e2eappeal${language}`,
        language,
        messagePermission: true,
      });
      await setPlayerStatus(
        player._id,
        { status: 'banned', statusReason: 'Several accounts', fa: { statusReason: 'چند حساب' } },
        new Date(),
      );
    }
  },
});

// the bot as the server runs it: its notification sender delivers the operator's answer
useBotRuntime(product);

afterAll(() => {
  expect(product.pageErrors).toEqual([]);
  expect(product.missingTranslations).toEqual([]);
});

const WORDS = {
  en: {
    label: 'Your appeal',
    send: 'Send the appeal',
    waiting: 'An operator will answer here and in the bot.',
    already: 'You already sent an appeal against this decision',
    appeals: 'Appeals',
    answer: 'Answer',
    save: 'Save',
    delete: 'Delete',
    answered: "The operators' answer",
    text: 'I am one person with one phone; my brother plays on his own account.',
    reply: 'We checked again: your account stays closed, the accounts share one wallet.',
  },
  fa: {
    label: 'درخواست شما',
    send: 'فرستادن درخواست',
    waiting: 'یک اپراتور همین‌جا و در ربات پاسخ می‌دهد.',
    already: 'شما برای این تصمیم درخواست بازبینی فرستاده‌اید',
    appeals: 'درخواست‌های بازبینی',
    answer: 'پاسخ',
    save: 'ذخیره',
    delete: 'حذف',
    answered: 'پاسخ اپراتورها',
    text: 'من یک نفرم با یک گوشی؛ برادرم با حساب خودش بازی می‌کند.',
    reply: 'دوباره بررسی کردیم: حساب شما بسته می‌ماند، حساب‌ها یک کیف پول دارند.',
  },
} as const;

/** Waits until nothing matches (a page leaving may show the old and the new at once for a moment). */
async function gone(locator: Locator) {
  for (let tries = 0; (await locator.count()) > 0 && tries < 50; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  await expect(locator.count()).resolves.toBe(0);
}

/** The banned player opening the app inside Telegram (dark), recording what the app posts to Telegram. */
const openBanned = (language: keyof typeof PLAYERS): Promise<Page> =>
  product.openPlayer(
    '/',
    { id: PLAYERS[language], first_name: `Banned ${language}`, language_code: language, allows_write_to_pm: true },
    { recordTelegram: true, themeParams: TELEGRAM_PALETTES.dark },
  );

describe.each(['en', 'fa'] as const)('in %s', (language) => {
  const words = WORDS[language];

  it('a banned player sends one appeal from the app at 390 px (read dark and light, and at 360); a second send is refused', async () => {
    // a banned player's app is the reason, the appeal and the help: nothing else
    const page = await openBanned(language);
    await page.getByLabel(words.label).waitFor();
    await expect(page.getByRole('navigation', { name: 'Main' }).count()).resolves.toBe(0);
    // a second tab of the same player, its form open before the first one sends
    const second = await openBanned(language);
    await second.getByLabel(words.label).fill(`${words.text} (again)`);

    await page.getByLabel(words.label).fill(words.text);
    await fits(page);
    await shot(page, `appeal-form-${language}-390`);
    await page.getByRole('button', { name: words.send }).click();
    await page.getByText(words.waiting).waitFor();
    await page.getByText(words.text).waitFor();
    await expect(page.getByRole('button', { name: words.send }).count()).resolves.toBe(0);
    // the sent appeal, the questions and the contact: dark and light at 390, and once at 360
    await lookEveryWay(page, 'appeal-sent', language, { narrow: [[language === 'en' ? 'light' : 'dark', 360]] });

    await second.getByRole('button', { name: words.send }).click();
    await second.getByRole('alert').filter({ hasText: words.already }).waitFor();
    await shot(second, `appeal-second-${language}-390`);
    await second.close();
    await page.close();
  });

  it('an operator answers it in the console’s Appeals queue, at 390 and 1280 px', async () => {
    const console = await product.signInOperator('arbiter', { signOutFirst: true, persian: language === 'fa', viewport: PHONE });
    await console.getByRole('button', { name: /Open menu|باز کردن منو/ }).click();
    await console.getByRole('menuitem', { name: words.appeals }).click();
    await console.getByText(words.text).waitFor();
    // the phone's list line says the status in the console's language, not the stored word
    await expect(console.getByText('open', { exact: true }).count()).resolves.toBe(0);
    await fits(console);
    await shot(console, `appeal-queue-${language}-390`);
    await console.getByText(words.text).click();
    // an appeal is answered, never deleted
    await console.getByLabel(words.answer).waitFor();
    await expect(console.getByRole('button', { name: words.delete }).count()).resolves.toBe(0);
    await console.getByLabel(words.answer).fill(words.reply);
    await fits(console);
    await shot(console, `appeal-answer-${language}-390`);
    await console.setViewportSize(DESKTOP);
    await shot(console, `appeal-answer-${language}-1280`);
    await console.getByRole('button', { name: words.save }).click();
    // saved: back on the queue, which shows open appeals only, so this one has left it
    await console.waitForURL(/\/admin\/appeals(\?.*)?$/);
    await gone(console.getByText(words.text));
    await shot(console, `appeal-queue-${language}-1280`);
    await console.close();
  });

  it('the player reads the answer in the app, dark and light, at 390 and 320 px, and the bot delivered it', async () => {
    const page = await openBanned(language);
    const answer = page.getByTestId('appeal-answer');
    await answer.getByText(words.answered).waitFor();
    await answer.getByText(words.reply).waitFor();
    // dark and light at 390, and once at 320
    await lookEveryWay(page, 'appeal-answered', language, { narrow: [[language === 'en' ? 'dark' : 'light', 320]] });
    await page.close();

    const delivered = async () => product.standIn.sent.filter((m) => m.chat_id === PLAYERS[language] && m.text.includes(words.reply));
    for (let tries = 0; (await delivered()).length === 0 && tries < 100; tries++) await new Promise((r) => setTimeout(r, 200));
    expect(await delivered()).toHaveLength(1);
  });
});

const HELP = {
  en: { profile: 'Profile', help: 'Help', faq: 'Questions and answers', question: 'Why was my account closed?', contact: 'Write to us' },
  fa: { profile: 'پروفایل', help: 'راهنما', faq: 'پرسش و پاسخ', question: 'چرا حساب من بسته شد؟', contact: 'برای ما بنویسید' },
} as const;

it.each(['en', 'fa'] as const)(
  "shows a player the Help page from Profile: the operators' questions and the contact, in %s",
  async (language) => {
    const words = HELP[language];
    const { page } = await product.openNewPlayer('/', { language, launch: { recordTelegram: true, themeParams: TELEGRAM_PALETTES.light } });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: words.profile }).click();
    await page.getByRole('link', { name: words.help }).click();
    await page.getByRole('heading', { name: words.faq }).waitFor();
    await page.getByText(words.question).click();
    await expect(page.getByRole('link', { name: words.contact }).getAttribute('href')).resolves.toBe('https://t.me/GiftSupport');
    // light and dark at 390, and once at 320 (English) or 360 (Persian)
    await lookEveryWay(page, 'help', language, { narrow: [language === 'en' ? ['light', 320] : ['dark', 360]] });
    await page.close();
  },
);
