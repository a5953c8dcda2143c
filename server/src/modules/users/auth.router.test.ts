import request from 'supertest';
import { ZodError } from 'zod';
import { AppError } from '../../lib/errors';
import { createApp } from '../../app';
import { createContextInner } from '../../http/context';
import { createCaller } from '../../trpc/root';
import { startBotApiWithEnv, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN, silentLogger, testEnv } from '../../../test/helpers';
import { LoginCodeModel } from './loginCode.model';
import { UserModel } from './user.model';
import { AppConfigModel } from '../config/appConfig.model';
import { upsertFromTelegram } from './users.service';
import { verifyInitData } from '../../lib/telegramAuth';
import { signInitData } from '../../../test/telegram';

const T0 = new Date('2025-03-01T12:00:00Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

let standIn: BotApiStandIn;
let env: ReturnType<typeof testEnv>;
beforeAll(async () => ({ standIn, env } = await startBotApiWithEnv()));
afterAll(() => standIn.close());

/** Work the server does after answering (sending codes); tests wait for it before looking at what was sent. */
const deliveries: Promise<unknown>[] = [];
const delivered = () => Promise.all(deliveries.splice(0));
const guest = (now: Date, overrideEnv = env) =>
  createCaller(createContextInner({ env: overrideEnv, now: () => now, afterResponse: (task) => void deliveries.push(task()) }));

let nextId = 9_100_000;
/** A player who launched the app in Telegram before, as web sign-in requires. */
async function telegramPlayer(fields: { username: string; allowsMessages?: boolean; language?: string }) {
  const id = ++nextId;
  const launch = verifyInitData(
    signInitData({
      user: {
        id,
        first_name: 'Web',
        username: fields.username,
        allows_write_to_pm: fields.allowsMessages ?? true,
        language_code: fields.language,
      },
      authDate: T0,
    }),
    TEST_BOT_TOKEN,
    T0,
  );
  return (await upsertFromTelegram(launch, T0)).user;
}

async function codesSentTo(telegramId: number): Promise<string[]> {
  await delivered();
  return standIn.sent.filter((m) => m.chat_id === telegramId).map((m) => /(\d{6})/.exec(m.text)![1]!);
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
    return undefined;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    const code = cause instanceof AppError ? cause.code : cause instanceof ZodError ? 'BAD_INPUT' : 'OTHER';
    return { message: (error as Error).message, code };
  }
}

/**
 * A player named `username` who asked for a code at T0, the code the bot sent them, and `verify`: the refusal of a
 * typed code (the right one unless given), `seconds` after T0, or undefined when it signs in.
 */
async function codeAsked(username: string) {
  const player = await telegramPlayer({ username });
  const { requestId } = await guest(T0).auth.requestLoginCode({ username });
  const [code = ''] = await codesSentTo(player.telegramId);
  const verify = (seconds: number, typed = code) => failure(guest(at(seconds)).auth.verifyLoginCode({ username, requestId, code: typed }));
  return { player, code, verify };
}

describe('web sign-in with a one-time code', () => {
  it('sends a 6-digit code to the player chat and trades the right code for a player token', async () => {
    // the token is then used over HTTP, where the server's real clock runs
    const now = new Date();
    const player = await telegramPlayer({ username: 'web_sara' });
    const answer = await guest(now).auth.requestLoginCode({ username: '@Web_Sara' });
    expect(answer).toEqual({ expiresInSeconds: 300, resendInSeconds: 60, requestId: expect.stringMatching(/^[\w-]{22}$/) });
    const [code] = await codesSentTo(player.telegramId);
    expect(code).toMatch(/^\d{6}$/);
    expect(standIn.sent.find((m) => m.chat_id === player.telegramId)!.text).toContain('sign-in code');

    const stored = await LoginCodeModel.findOne({ user: player._id }).lean();
    expect(stored!.codeHash).not.toContain(code!);
    expect(JSON.stringify((await LoginCodeModel.findOne({ user: player._id }))!.toJSON())).not.toContain('codeHash');

    const { token } = await guest(now).auth.verifyLoginCode({ username: 'web_sara', requestId: answer.requestId, code: code! });
    const app = createApp({ env, logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
    const me = await request(app).get('/trpc/user.me').set('Authorization', `Bearer ${token}`);
    expect(me.status).toBe(200);
    expect(me.body.result.data.json).toMatchObject({ id: String(player._id), username: 'web_sara' });
  });

  it('writes to a Persian speaker in Persian', async () => {
    const player = await telegramPlayer({ username: 'web_parisa', language: 'fa' });
    await guest(T0).auth.requestLoginCode({ username: 'web_parisa' });
    await delivered();
    expect(standIn.sent.find((m) => m.chat_id === player.telegramId)!.text).toContain('کد ورود');
  });

  it("answers a wrong code with 'Incorrect code'", async () => {
    const { code, verify } = await codeAsked('web_wrong');
    const wrong = code === '000000' ? '000001' : '000000';
    expect(await verify(10, wrong)).toEqual({ message: 'Incorrect code', code: 'INCORRECT_CODE' });
    expect(await verify(10)).toBeUndefined();
  });

  it('lets a code live 5 minutes', async () => {
    expect(await (await codeAsked('web_late')).verify(300)).toMatchObject({ code: 'CODE_EXPIRED' });
    expect(await (await codeAsked('web_intime')).verify(299)).toBeUndefined();
  });

  it('allows 5 tries: the 6th is refused even with the right code', async () => {
    const { code, verify } = await codeAsked('web_tries');
    const wrong = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect(await verify(10, wrong)).toMatchObject({ code: 'INCORRECT_CODE' });
    expect(await verify(10)).toMatchObject({ code: 'TOO_MANY_ATTEMPTS' });
  });

  it('counts 20 simultaneous guesses as 20 tries: 5 are checked, the rest refused', async () => {
    const { player, code, verify } = await codeAsked('web_burst');
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const outcomes = await Promise.all(guesses.map((guess) => verify(5, guess)));
    expect(outcomes.filter((o) => o?.code === 'INCORRECT_CODE')).toHaveLength(5);
    expect(outcomes.filter((o) => o?.code === 'TOO_MANY_ATTEMPTS')).toHaveLength(15);
    expect((await LoginCodeModel.findOne({ user: player._id }).lean())!.attempts).toBe(5);
  });

  it('accepts a code once', async () => {
    const { verify } = await codeAsked('web_once');
    const both = await Promise.all([1, 2, 3].map(() => verify(5)));
    expect(both.filter((o) => o === undefined)).toHaveLength(1);
    expect(await verify(6)).toMatchObject({ code: 'CODE_EXPIRED' });
  });

  it('sends one code a minute, at most 5 an hour, and a code works only with the request that asked for it', async () => {
    const player = await telegramPlayer({ username: 'web_spam' });
    const [firstRequest] = await Promise.all(Array.from({ length: 10 }, () => guest(T0).auth.requestLoginCode({ username: 'web_spam' })));
    await guest(at(59)).auth.requestLoginCode({ username: 'web_spam' });
    expect(await codesSentTo(player.telegramId)).toHaveLength(1);

    const secondRequest = await guest(at(61)).auth.requestLoginCode({ username: 'web_spam' });
    const [, second] = await codesSentTo(player.telegramId);
    expect(second).toMatch(/^\d{6}$/);
    const sentFor = (await LoginCodeModel.find({ user: player._id }).select('+requestHash').lean()).length;
    expect(sentFor).toBe(2);
    // the second code with the id of a request that sent nothing, or of another request, is just a wrong code
    expect(
      await failure(guest(at(62)).auth.verifyLoginCode({ username: 'web_spam', requestId: firstRequest!.requestId, code: second! })),
    ).toMatchObject({
      code: 'INCORRECT_CODE',
    });
    expect(
      await failure(guest(at(62)).auth.verifyLoginCode({ username: 'web_spam', requestId: secondRequest.requestId, code: second! })),
    ).toBeUndefined();
    for (let minute = 2; minute <= 6; minute++) {
      await guest(at(minute * 61)).auth.requestLoginCode({ username: 'web_spam' });
      await delivered();
    }
    expect(await codesSentTo(player.telegramId)).toHaveLength(5);
  });

  it('gives the same answer, and sends nothing, for an unknown username or a player who did not allow messages', async () => {
    const silent = await telegramPlayer({ username: 'web_quiet', allowsMessages: false });
    const before = standIn.sent.length;
    const nobody = await guest(T0).auth.requestLoginCode({ username: 'nobody_here' });
    expect(nobody).toEqual({ expiresInSeconds: 300, resendInSeconds: 60, requestId: expect.any(String) });
    expect(await guest(T0).auth.requestLoginCode({ username: 'web_quiet' })).toEqual({
      expiresInSeconds: 300,
      resendInSeconds: 60,
      requestId: expect.any(String),
    });
    await delivered();
    expect(standIn.sent.length).toBe(before);
    expect(
      await failure(guest(at(5)).auth.verifyLoginCode({ username: 'nobody_here', requestId: nobody.requestId, code: '123456' })),
    ).toMatchObject({
      code: 'INCORRECT_CODE',
    });
    expect(await LoginCodeModel.countDocuments({ user: silent._id })).toBe(0);
  });

  it('frees the minute when Telegram refuses the message, so the player can try again', async () => {
    const player = await telegramPlayer({ username: 'web_fail' });
    const broken = testEnv({ TELEGRAM_API_ROOT: 'http://127.0.0.1:1' });
    expect(await guest(T0, broken).auth.requestLoginCode({ username: 'web_fail' })).toMatchObject({
      expiresInSeconds: 300,
      resendInSeconds: 60,
    });
    await delivered();
    expect(await LoginCodeModel.countDocuments({ user: player._id })).toBe(0);
    await guest(at(5)).auth.requestLoginCode({ username: 'web_fail' });
    expect(await codesSentTo(player.telegramId)).toHaveLength(1);
  });

  it("stops writing to a player who blocked the bot: 'bot was blocked by the user' clears the message permission", async () => {
    const player = await telegramPlayer({ username: 'web_blocked' });
    standIn.blocked.add(player.telegramId);
    try {
      expect(await guest(T0).auth.requestLoginCode({ username: 'web_blocked' })).toMatchObject({
        expiresInSeconds: 300,
        resendInSeconds: 60,
      });
      await delivered();
      expect((await UserModel.findById(player._id).lean())!.messagePermission).toBe(false);
      expect(await LoginCodeModel.countDocuments({ user: player._id })).toBe(0);
    } finally {
      standIn.blocked.delete(player.telegramId);
    }
  });

  it('checks the input and says when no bot is configured', async () => {
    expect(await failure(guest(T0).auth.requestLoginCode({ username: 'a b' }))).toMatchObject({ code: 'BAD_INPUT' });
    const noBot = testEnv({ TELEGRAM_BOT_TOKEN: '' });
    expect(await failure(guest(T0, noBot).auth.requestLoginCode({ username: 'web_sara' }))).toMatchObject({ code: 'NOT_CONFIGURED' });
    expect(await UserModel.countDocuments({ usernameLower: 'a b' })).toBe(0);
  });
});

describe('the sign-in page outside Telegram', () => {
  it('offers the link that opens the app in Telegram once App Config names the bot, and none before', async () => {
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { botUsername: '', miniAppName: '' } }, { upsert: true });
    await expect(guest(T0).auth.signInSettings()).resolves.toEqual({ openInTelegram: null });
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { botUsername: '@GiftRewardsBot', miniAppName: 'app' } });
    await expect(guest(T0).auth.signInSettings()).resolves.toEqual({ openInTelegram: 'https://t.me/GiftRewardsBot/app' });
  });
});
