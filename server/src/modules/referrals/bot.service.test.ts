import request from 'supertest';
import { createApp } from '../../app';
import { createPlayer } from '../../../test/factories';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger, testEnv } from '../../../test/helpers';
import { getAppConfig } from '../config/config.service';
import { UserModel } from '../users/user.model';
import { handleBotUpdate, webhookSecret } from './bot.service';

let standIn: BotApiStandIn;
let env: ReturnType<typeof testEnv>;
beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  env = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot });
  const config = await getAppConfig();
  config.set({ botUsername: 'GiftRewardsBot', miniAppName: 'play' });
  await config.save();
});
afterAll(() => standIn.close());

const startMessage = (text: string, from = { id: 4242, language_code: 'en' }, chatType = 'private') => ({
  update_id: 1,
  message: { message_id: 10, date: 0, chat: { id: from.id, type: chatType }, from: { ...from, is_bot: false, first_name: 'Guest' }, text },
});

function lastReplyTo(chatId: number) {
  const reply = standIn.sent.filter((m) => m.chat_id === chatId).at(-1);
  const button = (reply?.reply_markup as { inline_keyboard: Array<Array<{ text: string; url: string }>> } | undefined)?.inline_keyboard[0]?.[0];
  return { text: reply?.text, button };
}

describe('the bot', () => {
  it('answers /start <code> with a button that opens the app with the code', async () => {
    expect(await handleBotUpdate(startMessage('/start Ab3_x-9Z'), env)).toBe(true);
    expect(lastReplyTo(4242)).toEqual({
      text: 'Welcome! Tap the button below to open the app, complete missions and earn coins.',
      button: { text: 'Open the app', url: 'https://t.me/GiftRewardsBot/play?startapp=Ab3_x-9Z' },
    });
  });

  it('answers a plain /start in Persian to a Persian speaker, and drops a malformed code', async () => {
    await handleBotUpdate(startMessage('/start', { id: 4243, language_code: 'fa' }), env);
    expect(lastReplyTo(4243).button).toEqual({ text: 'باز کردن برنامه', url: 'https://t.me/GiftRewardsBot/play' });
    await handleBotUpdate(startMessage('/start <script>', { id: 4244, language_code: 'en' }), env);
    expect(lastReplyTo(4244).button?.url).toBe('https://t.me/GiftRewardsBot/play');
  });

  it('lets itself message a player who started it', async () => {
    const player = await createPlayer({ telegramId: 4245, messagePermission: false });
    await handleBotUpdate(startMessage('/start', { id: 4245, language_code: 'en' }), env);
    expect((await UserModel.findById(player._id))!.messagePermission).toBe(true);
  });

  it('stays silent for other messages, group chats and updates without a message', async () => {
    const before = standIn.sent.length;
    expect(await handleBotUpdate(startMessage('hello'), env)).toBe(false);
    expect(await handleBotUpdate(startMessage('/start abcd1234', { id: -100, language_code: 'en' }, 'group'), env)).toBe(false);
    expect(await handleBotUpdate({ update_id: 2, callback_query: {} }, env)).toBe(false);
    expect(await handleBotUpdate('nonsense', env)).toBe(false);
    expect(standIn.sent.length).toBe(before);
  });

  it('takes updates on a webhook path only Telegram knows', async () => {
    const app = createApp({ env, logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
    const wrong = await request(app).post('/telegram/webhook/not-the-secret').send(startMessage('/start', { id: 4246, language_code: 'en' }));
    expect(wrong.status).toBe(404);
    expect(standIn.sent.some((m) => m.chat_id === 4246)).toBe(false);

    const right = await request(app).post(`/telegram/webhook/${webhookSecret(TEST_BOT_TOKEN)}`).send(startMessage('/start code9876', { id: 4246, language_code: 'en' }));
    expect(right.status).toBe(200);
    expect(lastReplyTo(4246).button?.url).toBe('https://t.me/GiftRewardsBot/play?startapp=code9876');
  });
});
