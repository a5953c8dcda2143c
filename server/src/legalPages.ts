import type { Express } from 'express';

const PAGE_STYLE =
  'body{font-family:system-ui,sans-serif;max-width:720px;margin:0 auto;padding:24px;line-height:1.6;background:#191919;color:#f2f4f1}a{color:#86e54b}h1{font-size:26px}';

function page(title: string, paragraphs: string[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} · Gift Rewards</title><style>${PAGE_STYLE}</style></head><body><h1>${title}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}<p><a href="/">Back to Gift Rewards</a></p></body></html>`;
}

const TERMS = page('Terms of use', [
  'Gift Rewards is a rewards app: you complete missions, mine and stake coins, and invite friends to earn Gift Coins, which you may withdraw to a TON wallet where a coin allows it.',
  'Rewards are credited once per mission, mining session, stake or friend. Coins credited by mistake or through abuse (several accounts, automated claims, fake referrals) may be corrected, and such accounts blocked.',
  'Staked coins are locked until the end of the chosen duration; the profit shown before you confirm is what you receive. Withdrawals go only to a wallet you proved is yours, and operators process them by hand.',
  'The app is provided as it is. Coin prices shown are informative, not an offer. These terms may change; the version on this page applies.',
]);

const PRIVACY = page('Privacy policy', [
  'We keep what Telegram shares when you open the app (your Telegram id, name, username, language, premium flag and whether our bot may message you), your progress on missions, mining, stakes and referrals, your balances and their ledger, and the TON wallet addresses you link.',
  'We use them only to run the app: to credit rewards, to check missions (for example whether you joined a channel, through the Telegram Bot API), to pay withdrawals, and to send you sign-in codes through our bot when you ask for one.',
  'We do not sell your data or show you third-party advertising. Operators see what they need to review missions and withdrawals. Your friends see none of your figures; a referrer sees your name and username.',
  'To have your account and data deleted, write to our bot in Telegram.',
]);

/** The pages the TON Connect manifest's termsOfUseUrl and privacyPolicyUrl point at. */
export function legalPages(app: Express): void {
  app.get('/terms', (_req, res) => void res.type('html').send(TERMS));
  app.get('/privacy', (_req, res) => void res.type('html').send(PRIVACY));
}
