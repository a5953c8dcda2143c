import { telegramBoostTarget, telegramMissionChat } from './telegramLinks';

/** The link is refused, and the message is for the link's field (each link named, so a failure says which). */
const expectLinkRefused = (check: (link: string) => object, link: string) =>
  expect([link, check(link)]).toEqual([link, expect.objectContaining({ field: 'link' })]);

it('finds the chat the bot can ask about: a public username (or a post of it), or the id given with an invite link', () => {
  expect(telegramMissionChat('https://t.me/giftnews')).toEqual({ chat: '@giftnews' });
  expect(telegramMissionChat(' https://t.me/GiftNews/42?single ')).toEqual({ chat: '@GiftNews' });
  expect(telegramMissionChat('https://t.me/+AbCdEf123456', '-1001234567890')).toEqual({ chat: '-1001234567890' });
  // an id given with a public link is what the bot asks about: it survives a renamed channel
  expect(telegramMissionChat('https://t.me/giftnews', '-1001234567890')).toEqual({ chat: '-1001234567890' });
});

it('refuses what the check cannot use, saying which field to fix', () => {
  for (const link of [
    '',
    'giftnews',
    'https://example.com/giftnews',
    'http://t.me/giftnews',
    'https://t.me/joinchat/AAAAAEkK',
    'https://t.me/c/1234567890/5',
    'https://t.me/addstickers/Animals',
    'https://t.me/share/url?url=x',
    'https://t.me/name.x',
    'https://t.me/abc',
    'https://t.me/1channel',
    'https://t.me/giftnews/about',
    'https://t.me/giftnews/1/2',
    'https://user@t.me/giftnews',
  ])
    expectLinkRefused(telegramMissionChat, link);
  expect(telegramMissionChat('https://t.me/+AbCdEf123456')).toMatchObject({ field: 'telegramChatId' });
  expect(telegramMissionChat('https://t.me/+AbCdEf123456', '@chat')).toMatchObject({ field: 'telegramChatId' });
});

it("finds a boost mission's channel and the boost page Go opens, from any of its public links or a private boost link with its id", () => {
  const giftnews = { chat: '@giftnews', boostLink: 'https://t.me/boost/giftnews' };
  expect(telegramBoostTarget('https://t.me/giftnews')).toEqual(giftnews);
  expect(telegramBoostTarget('https://t.me/giftnews?boost')).toEqual(giftnews);
  expect(telegramBoostTarget(' https://t.me/boost/giftnews ')).toEqual(giftnews);
  expect(telegramBoostTarget('https://t.me/boost/giftnews', '-1001234567890')).toEqual({ ...giftnews, chat: '-1001234567890' });
  expect(telegramBoostTarget('https://t.me/boost?c=1234567890', '-1001234567890')).toEqual({
    chat: '-1001234567890',
    boostLink: 'https://t.me/boost?c=1234567890',
  });
});

it('refuses a boost link the check or Go cannot use, saying which field to fix', () => {
  for (const link of ['', 'https://t.me/boost', 'https://t.me/+AbCdEf123456', 'https://t.me/giftnews/42', 'http://t.me/giftnews'])
    expectLinkRefused(telegramBoostTarget, link);
  // a boost page takes no other question than ?boost
  expectLinkRefused(telegramBoostTarget, 'https://t.me/giftnews?x=1');
  expect(telegramBoostTarget('https://t.me/boost?c=1234567890')).toMatchObject({ field: 'telegramChatId' });
  expect(telegramBoostTarget('https://t.me/giftnews', 'news')).toMatchObject({ field: 'telegramChatId' });
});
