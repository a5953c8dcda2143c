import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../../app';
import { createLogger } from '../../lib/logger';
import { startBotApiStandIn, STAND_IN_BOT, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger, testEnv } from '../../../test/helpers';
import { balanceOf } from '../ledger/ledger.service';
import { createCoin, createPlayer } from '../../../test/factories';
import { getAppConfig } from '../config/config.service';
import { UserModel } from '../users/user.model';
import { createBot, webhookSecretToken } from './bot.service';
import { BotRuntime } from './botRuntime';

let standIn: BotApiStandIn;
let env: ReturnType<typeof testEnv>;
let referralCoin: Awaited<ReturnType<typeof createCoin>>;
beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  env = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot });
  referralCoin = await createCoin({ symbol: 'GIFT' });
  const config = await getAppConfig();
  config.set({ botUsername: 'GiftRewardsBot', miniAppName: 'play', referrerCoin: referralCoin._id, referrerCoinAmount: 50_000_000 });
  await config.save();
});
afterAll(() => standIn.close());

let updateIds = 100;
const message = (text: string, from: { id: number; language_code?: string; first_name?: string } = { id: 4242 }, chatType = 'private') => ({
  update_id: ++updateIds,
  message: {
    message_id: updateIds,
    date: Math.floor(Date.now() / 1000),
    chat: { id: from.id, type: chatType },
    from: { first_name: 'Guest', language_code: 'en', ...from, is_bot: false },
    text,
    ...(text.startsWith('/') ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] } : {}),
  },
});

function lastReplyTo(chatId: number) {
  const reply = standIn.sent.filter((m) => m.chat_id === chatId).at(-1);
  const button = (reply?.reply_markup as { inline_keyboard: Array<Array<{ text: string; url: string }>> } | undefined)
    ?.inline_keyboard[0]?.[0];
  return { text: reply?.text, button };
}

async function eventually(condition: () => boolean | Promise<boolean>, what: string) {
  for (let i = 0; i < 400; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`never happened: ${what}`);
}

describe('/start and /help', () => {
  const botInfo = { ...STAND_IN_BOT, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false } as never;
  const handle = (update: ReturnType<typeof message>) =>
    createBot(TEST_BOT_TOKEN, { env, logger: silentLogger, botInfo }).handleUpdate(update as never);

  it('answers /start <code> with a button that opens the app with the code, and credits the referrer once', async () => {
    const referrer = await createPlayer({ referralCode: 'Ab3_x-9Z' });
    await handle(message('/start Ab3_x-9Z', { id: 5001, first_name: 'Nima' }));
    expect(lastReplyTo(5001)).toEqual({
      text: 'Welcome! Tap the button below to open the app, complete missions and earn coins.',
      button: { text: 'Open the app', url: 'https://t.me/GiftRewardsBot/play?startapp=Ab3_x-9Z' },
    });
    const newcomer = (await UserModel.findOne({ telegramId: 5001 }).lean())!;
    expect(newcomer).toMatchObject({ name: 'Nima', messagePermission: true, referrer: referrer._id });

    // again, and at once twice more: still one friend and one reward
    await Promise.all([handle(message('/start Ab3_x-9Z', { id: 5001 })), handle(message('/start Ab3_x-9Z', { id: 5001 }))]);
    expect(await UserModel.countDocuments({ telegramId: 5001 })).toBe(1);
    expect((await UserModel.findById(referrer._id).lean())!.referrersCount).toBe(1);
    expect(await balanceOf(referrer._id, referralCoin._id)).toBe(50_000_000n);
  });

  it("answers a plain /start in the player's language without a code, and drops a malformed code", async () => {
    await handle(message('/start', { id: 5002, language_code: 'fa' }));
    expect(lastReplyTo(5002)).toEqual({
      text: 'خوش آمدید! برای باز کردن برنامه، انجام ماموریت‌ها و کسب سکه روی دکمه زیر بزنید.',
      button: { text: 'باز کردن برنامه', url: 'https://t.me/GiftRewardsBot/play' },
    });
    await handle(message('/start <script>', { id: 5003 }));
    expect(lastReplyTo(5003).button?.url).toBe('https://t.me/GiftRewardsBot/play');
    expect((await UserModel.findOne({ telegramId: 5003 }).lean())!.referrer).toBeNull();
  });

  it('lets itself message a player who started it', async () => {
    const player = await createPlayer({ messagePermission: false });
    await handle(message('/start', { id: player.telegramId }));
    expect((await UserModel.findById(player._id).lean())!.messagePermission).toBe(true);
  });

  it('answers /help in English and Persian', async () => {
    await handle(message('/help', { id: 5004 }));
    expect(lastReplyTo(5004).text).toMatch(/^Gift Rewards: complete missions/);
    await handle(message('/help', { id: 5005, language_code: 'fa' }));
    expect(lastReplyTo(5005).text).toMatch(/^Gift Rewards: ماموریت‌ها را انجام دهید/);
    expect(lastReplyTo(5005).button).toEqual({ text: 'باز کردن برنامه', url: 'https://t.me/GiftRewardsBot/play' });
  });

  it('stays silent for other messages and group chats', async () => {
    const before = standIn.sent.length;
    await handle(message('hello', { id: 5006 }));
    await handle(message('/start abcd1234', { id: -100 }, 'group'));
    expect(standIn.sent.length).toBe(before);
  });
});

describe('long polling (no PUBLIC_URL)', () => {
  it('picks up an update, sets the commands in English and Persian, and polls from one instance only', async () => {
    const first = new BotRuntime({ env, logger: silentLogger, holder: 'instance-a' });
    const second = new BotRuntime({ env, logger: silentLogger, holder: 'instance-b' });
    await first.start();
    await second.start();
    try {
      expect(first.isPolling).toBe(true);
      expect(second.isPolling).toBe(false);
      const commands = standIn.calls.filter((c) => c.method === 'setMyCommands').map((c) => c.params);
      expect(commands).toEqual(
        expect.arrayContaining([
          {
            commands: [
              { command: 'start', description: 'Open the app' },
              { command: 'help', description: 'What this bot does' },
            ],
          },
          {
            commands: [
              { command: 'start', description: 'باز کردن برنامه' },
              { command: 'help', description: 'این ربات چه می‌کند' },
            ],
            language_code: 'fa',
          },
        ]),
      );

      standIn.pushUpdate(message('/start', { id: 5101 }));
      await eventually(() => lastReplyTo(5101).text !== undefined, 'the polled /start was answered');
      expect(lastReplyTo(5101).button?.url).toBe('https://t.me/GiftRewardsBot/play');

      // the poller stops cleanly; the other instance takes over on its next round
      await first.stop();
      await second.supervise();
      expect(second.isPolling).toBe(true);
      standIn.pushUpdate(message('/help', { id: 5102 }));
      await eventually(() => lastReplyTo(5102).text !== undefined, 'the second instance answered');
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('follows a bot token saved in App Config without a restart', async () => {
    const noEnvToken = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot, TELEGRAM_BOT_TOKEN: '' });
    const config = await getAppConfig();
    config.set({ botToken: '' });
    await config.save();
    const runtime = new BotRuntime({ env: noEnvToken, logger: silentLogger, holder: 'instance-c' });
    await runtime.start();
    try {
      expect(runtime.isPolling).toBe(false);
      config.set({ botToken: TEST_BOT_TOKEN });
      await config.save();
      await runtime.supervise();
      expect(runtime.isPolling).toBe(true);
      standIn.pushUpdate(message('/start', { id: 5103 }));
      await eventually(() => lastReplyTo(5103).text !== undefined, 'the bot answered with the new token');
    } finally {
      await runtime.stop();
      config.set({ botToken: '' });
      await config.save();
    }
  });
});

describe('webhook mode (PUBLIC_URL)', () => {
  const publicUrl = 'https://rewards.example.com';

  it('registers its webhook with a secret token, sets the menu button, and refuses a request without the secret header', async () => {
    const webhookEnv = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot, PUBLIC_URL: publicUrl });
    const logger = silentLogger;
    const runtime = new BotRuntime({ env: webhookEnv, logger, holder: 'instance-w' });
    await runtime.start();
    try {
      const secret = webhookSecretToken(TEST_BOT_TOKEN, webhookEnv.JWT_SECRET);
      expect(standIn.webhook).toEqual({ url: `${publicUrl}/telegram/webhook`, secret_token: secret });
      expect(standIn.calls.filter((c) => c.method === 'setChatMenuButton').at(-1)!.params).toEqual({
        menu_button: { type: 'web_app', text: 'Open', web_app: { url: `${publicUrl}/` } },
      });
      expect(runtime.isPolling).toBe(false);

      const app = createApp({ env: webhookEnv, logger, bot: runtime, clientDist: '/nonexistent', adminDist: '/nonexistent' });
      await request(app)
        .post('/telegram/webhook')
        .send(message('/start', { id: 5201 }))
        .expect(401);
      await request(app)
        .post('/telegram/webhook')
        .set('X-Telegram-Bot-Api-Secret-Token', 'guess')
        .send(message('/start', { id: 5201 }))
        .expect(401);
      expect(lastReplyTo(5201).text).toBeUndefined();

      await request(app)
        .post('/telegram/webhook')
        .set('X-Telegram-Bot-Api-Secret-Token', secret)
        .send(message('/start code9876', { id: 5201, language_code: 'fa' }))
        .expect(200);
      expect(lastReplyTo(5201).button).toEqual({ text: 'باز کردن برنامه', url: 'https://t.me/GiftRewardsBot/play?startapp=code9876' });
      // a Persian speaker's own menu button speaks Persian
      expect(standIn.calls.filter((c) => c.method === 'setChatMenuButton').at(-1)!.params).toEqual({
        chat_id: 5201,
        menu_button: { type: 'web_app', text: 'باز کردن', web_app: { url: `${publicUrl}/` } },
      });
    } finally {
      await runtime.stop();
    }
  });

  it('registers its webhook on a later round when Telegram refused it at start', async () => {
    const webhookEnv = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot, PUBLIC_URL: 'https://later.example.com' });
    standIn.webhook = null;
    standIn.failNext.set('setWebhook', { status: 502, description: 'Bad Gateway' });
    const runtime = new BotRuntime({ env: webhookEnv, logger: silentLogger, holder: 'instance-r' });
    await runtime.start();
    try {
      expect(standIn.webhook).toBeNull();
      await runtime.supervise();
      expect(standIn.webhook).toMatchObject({ url: 'https://later.example.com/telegram/webhook' });
    } finally {
      await runtime.stop();
    }
  });
});

describe('the bot token stays secret', () => {
  it('never reaches the logs: not the token, not the webhook secret, not a hash of the token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('trace', sink);
    const webhookEnv = testEnv({ TELEGRAM_API_ROOT: standIn.apiRoot, PUBLIC_URL: 'https://rewards.example.com' });
    const runtime = new BotRuntime({ env: webhookEnv, logger, holder: 'instance-l' });
    await runtime.start();
    try {
      const secret = webhookSecretToken(TEST_BOT_TOKEN, webhookEnv.JWT_SECRET);
      const app = createApp({ env: webhookEnv, logger, bot: runtime, clientDist: '/nonexistent', adminDist: '/nonexistent' });
      await request(app)
        .post('/telegram/webhook')
        .set('X-Telegram-Bot-Api-Secret-Token', secret)
        .send(message('/start', { id: 5301 }))
        .expect(200);
      await request(app)
        .post('/telegram/webhook')
        .set('X-Telegram-Bot-Api-Secret-Token', 'wrong')
        .send(message('/start', { id: 5301 }))
        .expect(401);
      // a Bot API failure is logged too: the stand-in refuses a chat it does not know
      standIn.blocked.add(5301);
      await request(app)
        .post('/telegram/webhook')
        .set('X-Telegram-Bot-Api-Secret-Token', secret)
        .send(message('/help', { id: 5301 }))
        .expect(200);
      standIn.blocked.delete(5301);
    } finally {
      await runtime.stop();
    }
    const log = lines.join('');
    expect(log).toContain('/telegram/webhook');
    expect(log).toContain('bot update not answered');
    const tokenSecret = TEST_BOT_TOKEN.split(':')[1]!;
    for (const leak of [
      TEST_BOT_TOKEN,
      tokenSecret,
      webhookSecretToken(TEST_BOT_TOKEN, webhookEnv.JWT_SECRET),
      createHash('sha256').update(TEST_BOT_TOKEN).digest('hex'),
    ]) {
      expect(log).not.toContain(leak);
    }
  });
});
