import { createApp } from '../../app';
import { NotificationModel } from '../notifications/notification.model';
import { notificationText } from '../notifications/notificationTexts';
import { AppConfigModel } from '../config/appConfig.model';
import { getAppConfig } from '../config/config.service';
import { setPlayerStatus } from '../users/playerStatus.service';
import { createPlayer, playerCaller } from '../../../test/factories';
import { consoleApi, createOperator } from '../../../test/operators';
import { silentLogger, testEnv } from '../../../test/helpers';
import { AppealModel, FaqModel } from './help.models';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const APPEAL = 'My brother and I share a phone; we are two real players.';

async function bannedPlayer(fields: Record<string, unknown> = {}) {
  const player = await createPlayer({ messagePermission: true, ...fields });
  return setPlayerStatus(player._id, { status: 'banned', statusReason: 'Several accounts', fa: { statusReason: 'چند حساب' } }, new Date());
}

describe('the Help page', () => {
  it("shows a banned player the operators' questions in their language and where to write", async () => {
    await FaqModel.create([
      { question: 'Why was I banned?', answer: 'One account per person.', fa: { question: 'چرا مسدود شدم؟', answer: '' }, order: 1 },
      { question: 'Hidden', answer: 'Not shown', enabled: false },
      { question: 'How do I withdraw?', answer: 'Connect a TON wallet.', order: 2 },
    ]);
    await getAppConfig();
    await AppConfigModel.updateOne({ key: 'app' }, { $set: { supportContact: 'https://t.me/GiftSupport' } });
    const banned = await bannedPlayer({ language: 'fa' });
    // a banned player is refused everything else, not this
    await expect(playerCaller(banned).user.me()).rejects.toMatchObject({ cause: { code: 'ACCOUNT_BANNED' } });
    const help = await playerCaller(banned).help.get();
    expect(help.contact).toBe('https://t.me/GiftSupport');
    expect(help.faqs.map((faq) => [faq.question, faq.answer])).toEqual([
      // the Persian question, and the English answer where no Persian one is written
      ['چرا مسدود شدم؟', 'One account per person.'],
      ['How do I withdraw?', 'Connect a TON wallet.'],
    ]);
  });
});

describe('appeals', () => {
  it('takes one appeal per ban, however often it is sent, and refuses a second one against the same decision', async () => {
    const banned = await bannedPlayer();
    const caller = playerCaller(banned);
    expect(await caller.help.appeal()).toBeNull();
    const sent = await Promise.all(Array.from({ length: 20 }, () => caller.help.sendAppeal({ text: APPEAL })));
    expect(new Set(sent.map((appeal) => appeal.id)).size).toBe(1);
    expect(await AppealModel.countDocuments({ user: banned._id })).toBe(1);
    expect(await caller.help.appeal()).toMatchObject({ text: APPEAL, status: 'open', answer: '' });

    await expect(caller.help.sendAppeal({ text: 'Another try with other words.' })).rejects.toMatchObject({
      message: 'You already sent an appeal against this decision: an operator will answer it',
      cause: { code: 'ALREADY_APPEALED' },
    });
    expect(await AppealModel.countDocuments({ user: banned._id })).toBe(1);
  });

  it('takes the same one appeal through support.appeal, the name the support door is known by', async () => {
    const banned = await bannedPlayer();
    const caller = playerCaller(banned);
    const sent = await Promise.all([caller.support.appeal({ text: APPEAL }), caller.help.sendAppeal({ text: APPEAL })]);
    expect(new Set(sent.map((appeal) => appeal.id)).size).toBe(1);
    expect(await caller.help.appeal()).toMatchObject({ text: APPEAL, status: 'open' });
    await expect(caller.support.appeal({ text: 'Another try with other words.' })).rejects.toMatchObject({
      cause: { code: 'ALREADY_APPEALED' },
    });
    expect(await AppealModel.countDocuments({ user: banned._id })).toBe(1);
  });

  it('refuses an active player and a text too short to say anything, changing nothing', async () => {
    const active = await createPlayer();
    await expect(playerCaller(active).help.sendAppeal({ text: APPEAL })).rejects.toMatchObject({ cause: { code: 'NOT_APPEALABLE' } });
    const frozen = await setPlayerStatus((await createPlayer())._id, { status: 'frozen', statusReason: 'Checking' }, new Date());
    await expect(playerCaller(frozen).help.sendAppeal({ text: '  why?  ' })).rejects.toThrow(
      'Write at least 10 characters: what happened, and why the decision should change',
    );
    expect(await AppealModel.countDocuments({ user: { $in: [active._id, frozen._id] } })).toBe(0);
    // a frozen player may appeal too
    expect(await playerCaller(frozen).help.sendAppeal({ text: APPEAL })).toMatchObject({ status: 'open' });
  });

  it('lets an operator answer once; the player reads it in the app and gets it once from the bot, in their language', async () => {
    const banned = await bannedPlayer({ language: 'fa' });
    const { id } = await playerCaller(banned).help.sendAppeal({ text: APPEAL });
    const reviewer = consoleApi(app, (await createOperator(['appeals:write'])).token);

    const queue = await reviewer.get('/appeals', { filter: { status: 'open' }, sort: ['createdAt', 'ASC'] });
    expect(queue.status).toBe(200);
    expect(queue.body.find((row: { id: string }) => row.id === id)).toMatchObject({ text: APPEAL, standing: 'banned', status: 'open' });

    const answer = 'We looked again: two people, two accounts. Your ban is lifted.';
    const answers = await Promise.all(Array.from({ length: 5 }, () => reviewer.put(`/appeals/${id}`, { answer })));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await playerCaller(banned).help.appeal()).toMatchObject({ status: 'answered', answer });
    const messages = await NotificationModel.find({ user: banned._id, event: 'appeal-answered' }).lean();
    expect(messages).toHaveLength(1);
    expect(notificationText('fa', 'appeal-answered', messages[0]!.facts as { answer: string })).toBe(
      `📨 یک اپراتور به درخواست بازبینی شما پاسخ داد:\n${answer}`,
    );

    const changed = await reviewer.put(`/appeals/${id}`, { answer: 'Something else' });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe('This appeal was already answered');
    expect((await AppealModel.findById(id).lean())!.answer).toBe(answer);
  });

  it('keeps appeals to operators who hold the permission, and answers bad input with a clear message', async () => {
    const banned = await bannedPlayer();
    const { id } = await playerCaller(banned).help.sendAppeal({ text: APPEAL });
    const outsider = consoleApi(app, (await createOperator(['missions:write'])).token);
    expect((await outsider.get('/appeals')).status).toBe(403);
    expect((await outsider.put(`/appeals/${id}`, { answer: 'No' })).status).toBe(403);
    const reviewer = consoleApi(app, (await createOperator(['appeals:write'])).token);
    const empty = await reviewer.put(`/appeals/${id}`, { answer: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toMatchObject({ answer: 'This field is required' });
    expect((await reviewer.delete(`/appeals/${id}`)).status).toBe(405);
    expect((await AppealModel.findById(id).lean())!.status).toBe('open');
  });

  it('keeps every appeal on record: a delete, open or answered, by any operator, answers 405 and changes nothing', async () => {
    const open = (await playerCaller(await bannedPlayer()).help.sendAppeal({ text: APPEAL })).id;
    const answered = (await playerCaller(await bannedPlayer()).help.sendAppeal({ text: APPEAL })).id;
    const owner = consoleApi(app, (await createOperator(['*'])).token);
    expect((await owner.put(`/appeals/${answered}`, { answer: 'Checked: it stays.' })).status).toBe(200);
    const before = await AppealModel.find({ _id: { $in: [open, answered] } })
      .sort({ _id: 1 })
      .lean();
    for (const id of [open, answered]) {
      const refused = await owner.delete(`/appeals/${id}`);
      expect([refused.status, refused.body]).toEqual([
        405,
        expect.objectContaining({ message: 'Cannot delete: An appeal stays on record' }),
      ]);
    }
    expect(
      await AppealModel.find({ _id: { $in: [open, answered] } })
        .sort({ _id: 1 })
        .lean(),
    ).toEqual(before);
  });

  it('allows a new appeal once the player was let back in and banned again', async () => {
    const banned = await bannedPlayer();
    await playerCaller(banned).help.sendAppeal({ text: APPEAL });
    await setPlayerStatus(banned._id, { status: 'active' }, new Date(Date.now() + 1000));
    const again = await setPlayerStatus(banned._id, { status: 'banned', statusReason: 'Again' }, new Date(Date.now() + 2000));
    expect(await playerCaller(again).help.appeal()).toBeNull();
    await playerCaller(again).help.sendAppeal({ text: 'This time it was a mistake too, please look.' });
    expect(await AppealModel.countDocuments({ user: banned._id })).toBe(2);
  });
});
