import { Types } from 'mongoose';
import { readPageTarget } from '@gift/shared';
import { createPlayer } from '../../../test/factories';
import { startBotApiStandIn, type BotApiStandIn } from '../../../test/botApiStandIn';
import { TEST_BOT_TOKEN } from '../../../test/helpers';
import { drained, messagesTo, testSender } from '../../../test/notificationSenders';
import { calendarDay, dayBefore } from '../../lib/calendarDay';
import { openAppUrl } from '../bot/bot.service';
import { setAppConfigFields } from '../config/config.service';
import type { UserDocument } from '../users/user.model';
import { notify, type NotificationSender } from './notifications.service';
import type { NotificationEvent, NotificationFacts } from './notificationTexts';

let standIn: BotApiStandIn;
let running: NotificationSender;
beforeAll(async () => {
  standIn = await startBotApiStandIn(TEST_BOT_TOKEN);
  // no quiet hours (the test runs at any hour); the links name the bot and the app as the product's do
  await setAppConfigFields({
    botUsername: 'GiftRewardsBot',
    miniAppName: 'play',
    timezone: 'UTC',
    reminders: { quietStart: '00:00', quietEnd: '00:00', dailyCap: 3, streakHoursBefore: 4 },
  });
  // the links as the bot's runtime makes them
  running = testSender(standIn, { ms: 0 }, (startParam) => openAppUrl('GiftRewardsBot', startParam));
  running.start();
});
afterAll(async () => {
  running.stop();
  await standIn.close();
});

const today = () => calendarDay(new Date(), 'UTC');
const stakeId = String(new Types.ObjectId());
const missionId = String(new Types.ObjectId());
const money = { amount: '120', symbol: 'GIFT' };
const atRisk = { streak: { days: 4, startDay: '2020-01-01', lastDay: dayBefore(today()) } };

/** One message of each kind to a player of its own, queued due now (every check is the sender's), and the page it should open. */
const CASES: Array<[string, NotificationEvent, NotificationFacts[NotificationEvent], Record<string, unknown>, string]> = [
  ['mining finished', 'mining-ready', { ...money, sessionId: stakeId }, {}, 'go-mining'],
  ['a streak about to break', 'streak-ending', { days: 4, day: today() }, atRisk, 'go-streak'],
  ['a stake unlocked (that stake)', 'stake-unlocked', { ...money, total: '130', stakeId }, {}, `go-stakes-${stakeId}`],
  ['a league prize', 'prize-won', { ...money, rank: 2 }, {}, 'go-leagues'],
  ['a withdrawal paid', 'withdrawal-paid', { ...money, txHash: 'abc' }, {}, 'go-withdrawals'],
  ['a withdrawal rejected', 'withdrawal-rejected', { ...money, reason: 'Address' }, {}, 'go-withdrawals'],
  ['a friend joined', 'friend-joined', { friend: 'Sara' }, {}, 'go-friends'],
  ['a friend qualified', 'friend-qualified', { friend: 'Sara' }, {}, 'go-friends'],
  ['an appeal answered', 'appeal-answered', { answer: 'Unfrozen.' }, { status: 'frozen' }, 'go-appeal'],
  ['a league prize, in Persian', 'prize-won', { ...money, rank: 1 }, { language: 'fa' }, 'go-leagues'],
  // a mission's verdict: that mission's page (it was home before issue 35 asked for the mission)
  ['a mission approved (that mission)', 'mission-approved', { mission: 'Follow us', missionId, ...money }, {}, `go-mission-${missionId}`],
  [
    'a mission rejected (that mission), in Persian',
    'mission-rejected',
    { mission: 'Follow us', missionId, reason: 'No proof' },
    { language: 'fa' },
    `go-mission-${missionId}`,
  ],
];
type Button = { text: string; url: string };
const buttons = new Map<string, Button>();
let missionButton: Button;

beforeAll(async () => {
  const players = new Map<string, UserDocument>();
  const queue = async (name: string, event: NotificationEvent, facts: unknown, fields: Record<string, unknown>) => {
    const player = await createPlayer({ messagePermission: true, ...fields });
    players.set(name, player);
    await notify(player._id, `${event}:${String(new Types.ObjectId())}`, event, facts as never, new Date());
  };
  for (const [name, event, facts, fields] of CASES) await queue(name, event, facts, fields);
  // queued by a version before the message named its mission
  await queue('mission', 'mission-approved', { mission: 'Follow us' }, {});
  await drained(running);
  for (const [name, player] of players) {
    const sent = messagesTo(standIn, player);
    expect([name, sent.length]).toEqual([name, 1]);
    const keyboard = (sent[0]!.reply_markup as { inline_keyboard: Button[][] }).inline_keyboard;
    if (name === 'mission') missionButton = keyboard[0]![0]!;
    else buttons.set(name, keyboard[0]![0]!);
  }
});

describe("each message's button opens the page it is about", () => {
  it.each(CASES)('%s', (name, _event, _facts, fields, target) => {
    const label = fields.language === 'fa' ? 'باز کردن برنامه' : 'Open the app';
    expect(buttons.get(name)).toEqual({ text: label, url: `https://t.me/GiftRewardsBot/play?startapp=${target}` });
    // a target the app knows: it opens that page rather than home
    expect(readPageTarget(target)).not.toBeNull();
  });

  it("a mission's verdict queued without its mission's id opens home (no start parameter)", () => {
    expect(missionButton).toEqual({ text: 'Open the app', url: 'https://t.me/GiftRewardsBot/play' });
  });
});
