import { INIT_DATA_MAX_AGE_SECONDS } from '@gift/shared';
import { signInitData } from '../../test/telegram';
import { TEST_BOT_TOKEN } from '../../test/helpers';
import { verifyInitData } from './telegramAuth';

const NOW = new Date('2025-03-01T12:00:00Z');
const seconds = (s: number) => new Date(NOW.getTime() + s * 1000);

/** The sample launch published with Telegram Mini Apps' documentation, with its bot token. */
const PUBLISHED_TOKEN = '5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8';
const PUBLISHED_INIT_DATA =
  'query_id=AAHdF6IQAAAAAN0XohDhrOrc&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D&auth_date=1662771648&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2';

const launch = {
  user: { id: 42, first_name: 'Sara', last_name: 'Karimi', username: 'sara_k', language_code: 'fa', allows_write_to_pm: true },
  authDate: NOW,
  startParam: 'abcd1234',
};

function refusal(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as { problem?: string }).problem ?? 'other';
  }
}

describe('Telegram launch check', () => {
  it('accepts the launch published in the documentation, for its bot', () => {
    const result = verifyInitData(PUBLISHED_INIT_DATA, PUBLISHED_TOKEN, new Date(1662771648_000 + 60_000));
    expect(result.user).toMatchObject({
      id: 279058397,
      first_name: 'Vladislav',
      last_name: 'Kibenko',
      username: 'vdkfrost',
      is_premium: true,
    });
    expect(result.query_id).toBe('AAHdF6IQAAAAAN0XohDhrOrc');
    expect(result.auth_date).toBe(1662771648);
  });

  it('accepts a fresh launch signed for this bot and reads its fields', () => {
    const result = verifyInitData(signInitData(launch), TEST_BOT_TOKEN, NOW);
    expect(result.user).toMatchObject({ id: 42, first_name: 'Sara', username: 'sara_k', allows_write_to_pm: true });
    expect(result.start_param).toBe('abcd1234');
    expect(result).not.toHaveProperty('hash');
  });

  it('includes the signature field in the checked data, as Telegram signs it', () => {
    const raw = signInitData({ ...launch, extra: { signature: 'Wn1Xo5OboCJ7X-KwCMsfhAp6ok', chat_type: 'sender' } });
    expect(verifyInitData(raw, TEST_BOT_TOKEN, NOW).chat_type).toBe('sender');
    const withoutSignature = new URLSearchParams(raw);
    withoutSignature.delete('signature');
    expect(refusal(() => verifyInitData(withoutSignature.toString(), TEST_BOT_TOKEN, NOW))).toBe('bad-signature');
  });

  it('refuses a launch signed for another bot', () => {
    const raw = signInitData(launch, '987654321:AAFanotherBotTokenThatIsNotOurs_xyz');
    expect(refusal(() => verifyInitData(raw, TEST_BOT_TOKEN, NOW))).toBe('bad-signature');
    expect(refusal(() => verifyInitData(PUBLISHED_INIT_DATA, TEST_BOT_TOKEN, new Date(1662771648_000)))).toBe('bad-signature');
  });

  it.each([
    ['user', JSON.stringify({ id: 43, first_name: 'Sara', username: 'sara_k' })],
    ['auth_date', String(Math.floor(NOW.getTime() / 1000) + 1)],
    ['start_param', 'someone-else'],
    ['hash', '0'.repeat(64)],
  ])('refuses a launch whose %s was changed', (field, value) => {
    const params = new URLSearchParams(signInitData(launch));
    params.set(field, value);
    expect(refusal(() => verifyInitData(params.toString(), TEST_BOT_TOKEN, NOW))).toBe('bad-signature');
  });

  it('refuses an added field, a missing hash and a repeated field', () => {
    const raw = signInitData(launch);
    expect(refusal(() => verifyInitData(`${raw}&start_param2=x`, TEST_BOT_TOKEN, NOW))).toBe('bad-signature');
    const noHash = new URLSearchParams(raw);
    noHash.delete('hash');
    expect(refusal(() => verifyInitData(noHash.toString(), TEST_BOT_TOKEN, NOW))).toBe('malformed');
    expect(refusal(() => verifyInitData(`${raw}&user=%7B%22id%22%3A1%7D`, TEST_BOT_TOKEN, NOW))).toBe('malformed');
    expect(refusal(() => verifyInitData('', TEST_BOT_TOKEN, NOW))).toBe('malformed');
  });

  it('accepts a launch up to 24 hours old and refuses an older one', () => {
    const raw = signInitData(launch);
    expect(verifyInitData(raw, TEST_BOT_TOKEN, seconds(INIT_DATA_MAX_AGE_SECONDS)).user.id).toBe(42);
    expect(refusal(() => verifyInitData(raw, TEST_BOT_TOKEN, seconds(INIT_DATA_MAX_AGE_SECONDS + 1)))).toBe('expired');
  });

  it("accepts a launch signed up to 10 minutes ahead (this server's clock behind Telegram's) and refuses one further ahead", () => {
    expect(verifyInitData(signInitData({ ...launch, authDate: seconds(600) }), TEST_BOT_TOKEN, NOW).user.id).toBe(42);
    expect(refusal(() => verifyInitData(signInitData({ ...launch, authDate: seconds(601) }), TEST_BOT_TOKEN, NOW))).toBe('from-the-future');
  });

  it('checks a launch it verified before for its age and its bot on every later use', () => {
    const raw = signInitData({ ...launch, authDate: seconds(600), queryId: 'kept-once-verified' });
    const first = verifyInitData(raw, TEST_BOT_TOKEN, NOW);
    expect(verifyInitData(raw, TEST_BOT_TOKEN, seconds(60))).toBe(first);
    // nobody can change what the next call with the same text will read
    expect(() => Object.assign(first.user, { id: 43 })).toThrow(TypeError);
    expect(refusal(() => verifyInitData(raw, '987654321:AAFanotherBotTokenThatIsNotOurs_xyz', NOW))).toBe('bad-signature');
    expect(refusal(() => verifyInitData(raw, TEST_BOT_TOKEN, seconds(-1)))).toBe('from-the-future');
    expect(verifyInitData(raw, TEST_BOT_TOKEN, seconds(600 + INIT_DATA_MAX_AGE_SECONDS)).user.id).toBe(42);
    expect(refusal(() => verifyInitData(raw, TEST_BOT_TOKEN, seconds(601 + INIT_DATA_MAX_AGE_SECONDS)))).toBe('expired');
    // the same text with one field changed is another text: its signature is checked, and fails
    expect(refusal(() => verifyInitData(raw.replace('kept-once-verified', 'kept-once-verifieX'), TEST_BOT_TOKEN, NOW))).toBe(
      'bad-signature',
    );
  });

  it('refuses a signed launch without a usable user', () => {
    const raw = signInitData({ ...launch, user: { id: -5 } });
    expect(refusal(() => verifyInitData(raw, TEST_BOT_TOKEN, NOW))).toBe('malformed');
  });
});
