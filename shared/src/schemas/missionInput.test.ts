import { missionInput } from './catalog';

const BASE = { category: '65f0000000000000000000c1', coin: '65f0000000000000000000d1', title: 'Grow with us', reward: '1' };

/** The console form's messages, field by field, for a mission of these fields (none: it saves). */
function messages(fields: Record<string, unknown>): Record<string, string> {
  const parsed = missionInput.safeParse({ ...BASE, ...fields });
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('the mission form, for the Telegram-native types', () => {
  it('Boost: needs a channel the bot can ask about, by a public link or a private boost link with its id', () => {
    expect(messages({ verifyType: 'boost', link: 'https://t.me/boost/giftnews' })).toEqual({});
    expect(messages({ verifyType: 'boost', link: 'https://t.me/boost?c=1234567890', telegramChatId: '-1001234567890' })).toEqual({});
    expect(messages({ verifyType: 'boost', link: 'https://example.com/giftnews' })).toEqual({ link: expect.stringContaining('boost') });
    expect(messages({ verifyType: 'boost', link: 'https://t.me/boost?c=1234567890' })).toEqual({
      telegramChatId: expect.stringContaining('chat id'),
    });
  });

  it('Emoji status: needs its custom emoji id, a number', () => {
    expect(messages({ verifyType: 'emojiStatus', emojiId: ' 5368324170671202286 ' })).toEqual({});
    expect(messages({ verifyType: 'emojiStatus' })).toEqual({ emojiId: 'An emoji status mission needs its custom emoji id' });
    expect(messages({ verifyType: 'emojiStatus', emojiId: '🔥' })).toEqual({
      emojiId: 'A custom emoji id is a number, for example 5368324170671202286',
    });
  });

  it('Home screen and Story: verified by time, so they need their minutes; a story needs its media and a short caption', () => {
    expect(messages({ verifyType: 'homeScreen', verifyDuration: 5 })).toEqual({});
    expect(messages({ verifyType: 'homeScreen' })).toEqual({ verifyDuration: 'Set how many minutes to wait before claiming' });
    expect(
      messages({ verifyType: 'story', verifyDuration: 5, storyMedia: '/demo/story.png', fa: { storyText: 'به من بپیوندید' } }),
    ).toEqual({});
    expect(messages({ verifyType: 'story', verifyDuration: 5 })).toEqual({
      storyMedia: 'A story mission needs the picture or video to share',
    });
    expect(messages({ verifyType: 'story', verifyDuration: 5, storyMedia: 'story.png', storyText: 'x'.repeat(201) })).toEqual({
      storyMedia: expect.stringContaining('http'),
      storyText: expect.stringContaining('200'),
    });
  });
});
