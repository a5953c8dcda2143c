import mongoose, { Types } from 'mongoose';
import request from 'supertest';
import { createApp } from '../../app';
import { createCoin, createManualMission, createPlayer } from '../../../test/factories';
import { silentLogger, testEnv } from '../../../test/helpers';
import { createOperator } from '../../../test/operators';
import { tmaHeader } from '../../../test/telegram';
import { AuditEntryModel } from '../audit/audit.model';
import { BroadcastModel, BroadcastRecipientModel } from '../broadcasts/broadcast.model';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { UserMissionModel } from '../missions/mission.models';
import { authenticatePlayer } from '../users/playerAuth.service';
import { WithdrawalModel } from '../withdrawals/withdrawal.model';
import { LaunchModel, PlayerNoteModel } from './timeline.models';
import './timeline.service';

const app = createApp({ env: testEnv(), logger: silentLogger, clientDist: '/nonexistent', adminDist: '/nonexistent' });
const BASE = new Date('2026-03-01T10:00:00Z');
const at = (minutes: number) => new Date(BASE.getTime() + minutes * 60_000);

interface Entry {
  id: string;
  event: string;
  kind: string;
  cursor: string;
  amount?: string;
  symbol?: string;
  title?: string;
  text?: string;
  author?: string;
  link: { resource: string; id: string } | null;
}
interface Page {
  entries: Entry[];
  next: string | null;
}

let token = '';
let author = '';
const auth = (test: request.Test, as = token) => test.set('Authorization', `Bearer ${as}`);
const timeline = (playerId: unknown, query: Record<string, string | number> = {}, as = token) =>
  auth(
    request(app)
      .get(`/api/admin/timeline/${String(playerId)}`)
      .query(query),
    as,
  );
const addNote = (playerId: unknown, body: unknown, as = token) =>
  auth(request(app).post(`/api/admin/timeline/${String(playerId)}/notes`), as).send(body as object);

beforeAll(async () => {
  const operator = await createOperator(['users:write']);
  token = operator.token;
  author = operator.account.username;
});

/** A record stored with the times given, as it was written then (mongoose would stamp it now). */
async function storedAt<T extends mongoose.Document>(doc: T, createdAt: Date): Promise<T> {
  doc.set({ createdAt, updatedAt: createdAt });
  return doc.save({ timestamps: false });
}

/** One record of each kind for the player, each a minute after the last, from a launch to an operator's write. */
async function oneOfEachKind(player: { _id: Types.ObjectId; telegramId: number }, coin: { _id: Types.ObjectId }) {
  const launched = await authenticatePlayer(tmaHeader({ user: { id: player.telegramId }, authDate: at(0) }), testEnv(), at(0.5));
  expect(String(launched.user?._id)).toBe(String(player._id));
  const { mission, category } = await createManualMission(coin, 2_500_000, 'Follow us');
  const progress = await storedAt(
    new UserMissionModel({
      user: player._id,
      mission: mission._id,
      category: category._id,
      coin: coin._id,
      reward: 2_500_000,
      status: 'done',
      startedAt: at(1),
      // approved in the moment it was claimed (an automatic check): the decision is shown above the claim
      claimedAt: at(2),
      doneAt: at(2),
    }),
    at(1),
  );
  await storedAt(
    new LedgerEntryModel({
      user: player._id,
      coin: coin._id,
      amount: 2_500_000,
      reason: 'mission',
      refType: 'UserMission',
      refId: String(progress._id),
      idempotencyKey: `mission:${String(progress._id)}`,
      state: 'posted',
    }),
    at(3),
  );
  const withdrawal = await storedAt(
    new WithdrawalModel({
      user: player._id,
      coin: coin._id,
      amount: 1_000_000,
      address: '0:'.padEnd(66, 'a'),
      status: 'done',
      idempotencyKey: `w:${String(player._id)}`,
      approvedAt: at(5),
      processedAt: at(6),
    }),
    at(4),
  );
  const broadcast = await BroadcastModel.create({ text: '<b>Double rewards</b> this weekend', status: 'done' });
  await BroadcastRecipientModel.create({
    broadcast: broadcast._id,
    user: player._id,
    telegramId: player.telegramId,
    status: 'sent',
    sentAt: at(7),
  });
  const audited = (minutes: number, after: Record<string, unknown>) =>
    storedAt(
      new AuditEntryModel({
        account: new Types.ObjectId(),
        username: 'maria',
        action: 'update',
        resource: 'users',
        record: String(player._id),
        before: {},
        after,
      }),
      at(minutes),
    );
  await audited(8, { status: 'banned', statusReason: 'Farm' });
  await audited(9, { inviteLimit: 5 });
  return { progress, withdrawal, broadcast };
}

const EVERY_KIND_NEWEST_FIRST = [
  'note',
  'operator.update',
  'status.banned',
  'broadcast',
  'withdrawal.done',
  'withdrawal.approved',
  'withdrawal.requested',
  'ledger',
  'mission.done',
  'mission.claimed',
  'mission.started',
  'launch',
];

describe('a player’s timeline', () => {
  it('shows one of each kind newest first, each with its summary and its record’s page, and no other player’s', async () => {
    const coin = await createCoin({ symbol: 'GIFT' });
    const [player, other] = await Promise.all([createPlayer({ lastSeenAt: at(-60) }), createPlayer({ lastSeenAt: at(-60) })]);
    const { progress, withdrawal, broadcast } = await oneOfEachKind(player, coin);
    await oneOfEachKind(other, coin);
    expect((await addNote(player._id, { text: '  Called support about the ban  ' })).status).toBe(201);
    expect((await addNote(other._id, { text: 'Another player' })).status).toBe(201);

    const res = await timeline(player._id);
    expect(res.status).toBe(200);
    const { entries, next } = res.body as Page;
    expect(entries.map((entry) => entry.event)).toEqual(EVERY_KIND_NEWEST_FIRST);
    expect(next).toBeNull();
    const byEvent = Object.fromEntries(entries.map((entry) => [entry.event, entry]));
    expect(byEvent.note).toMatchObject({ kind: 'note', text: 'Called support about the ban', author, link: null });
    expect(byEvent['mission.done']).toMatchObject({ title: 'Follow us', amount: '2.5', symbol: 'GIFT' });
    expect(byEvent['mission.done']!.link).toEqual({ resource: 'user-missions', id: String(progress._id) });
    expect(byEvent.ledger).toMatchObject({ amount: '2.5', symbol: 'GIFT', link: { resource: 'user-missions', id: String(progress._id) } });
    expect(byEvent['withdrawal.done']).toMatchObject({
      amount: '1',
      symbol: 'GIFT',
      link: { resource: 'withdraws', id: String(withdrawal._id) },
    });
    expect(byEvent.broadcast).toMatchObject({
      text: 'Double rewards this weekend',
      link: { resource: 'broadcasts', id: String(broadcast._id) },
    });
    expect(byEvent['status.banned']).toMatchObject({ kind: 'status', author: 'maria' });

    // one kind at a time
    const statuses = (await timeline(player._id, { kind: 'status' })).body as Page;
    expect(statuses.entries.map((entry) => entry.event)).toEqual(['status.banned']);
    const missions = (await timeline(player._id, { kind: 'mission' })).body as Page;
    expect(missions.entries.map((entry) => entry.event)).toEqual(['mission.done', 'mission.claimed', 'mission.started']);
  });

  it('pages with the cursor without losing or repeating entries that share a timestamp', async () => {
    const coin = await createCoin();
    const player = await createPlayer({ lastSeenAt: at(-60) });
    await oneOfEachKind(player, coin);
    // five ledger entries and two notes in one millisecond, beside the mission's claim and decision in another
    for (let i = 0; i < 5; i++)
      await storedAt(
        new LedgerEntryModel({
          user: player._id,
          coin: coin._id,
          amount: 1_000_000 + i,
          reason: 'gift',
          idempotencyKey: `same-moment:${i}:${String(player._id)}`,
          state: 'posted',
        }),
        at(3),
      );
    for (const text of ['first', 'second'])
      await storedAt(new PlayerNoteModel({ user: player._id, text, account: new Types.ObjectId(), author: 'maria' }), at(3));

    const whole = ((await timeline(player._id, { limit: 100 })).body as Page).entries.map((entry) => entry.id);
    expect(whole).toHaveLength(EVERY_KIND_NEWEST_FIRST.length - 1 + 7);
    for (const limit of [1, 2, 3]) {
      const paged: string[] = [];
      let before: string | null = null;
      for (let pages = 0; pages < 50; pages++) {
        const page = (await timeline(player._id, { limit, ...(before ? { before } : {}) })).body as Page;
        paged.push(...page.entries.map((entry) => entry.id));
        before = page.next;
        if (!before) break;
      }
      expect(paged).toEqual(whole);
    }
  });

  it('reads each source once through its index, at most a page of it (the index test checks every query of this file)', async () => {
    const coin = await createCoin();
    const player = await createPlayer({ lastSeenAt: at(-60) });
    await oneOfEachKind(player, coin);
    const reads: Array<{ command: string; limit: unknown }> = [];
    const recording = mongoose.get('debug') as unknown;
    mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
      const options = args.slice(1).find((arg) => arg && typeof arg === 'object' && 'limit' in arg) as { limit?: number } | undefined;
      if (!['operatorsessions', 'accounts'].includes(collection)) reads.push({ command: `${collection}.${method}`, limit: options?.limit });
      if (typeof recording === 'function') (recording as (...all: unknown[]) => void)(collection, method, ...args);
    });
    try {
      expect((await timeline(player._id, { limit: 9 })).status).toBe(200);
    } finally {
      mongoose.set('debug', recording as boolean);
    }
    // one read of each source, of at most the page's size: launches, 4 moments of missions, the ledger, 3 moments of
    // withdrawals, broadcasts received, notes and the audit; then one read of each kind of name the page shows
    const sources = reads.filter((read) => read.limit !== undefined);
    expect(sources.map((read) => read.command).sort()).toEqual(
      [
        'auditentries',
        'broadcastrecipients',
        'launches',
        'ledgerentries',
        'playernotes',
        ...Array(4).fill('usermissions'),
        ...Array(3).fill('withdrawals'),
      ].map((collection) => `${collection}.find`),
    );
    expect(sources.every((read) => read.limit === 9)).toBe(true);
    expect(
      reads
        .filter((read) => read.limit === undefined)
        .map((read) => read.command)
        .sort(),
    ).toEqual(['broadcasts.find', 'giftcoins.find', 'missions.find']);
  });

  it('records a launch once, however many of its requests arrive, and a later launch again', async () => {
    const player = await createPlayer({ lastSeenAt: at(-120) });
    const header = tmaHeader({ user: { id: player.telegramId }, authDate: at(0) });
    await Promise.all([0, 1, 2].map(() => authenticatePlayer(header, testEnv(), at(0.2))));
    await authenticatePlayer(header, testEnv(), at(3));
    expect(await LaunchModel.countDocuments({ user: player._id })).toBe(1);
    await authenticatePlayer(tmaHeader({ user: { id: player.telegramId }, authDate: at(30) }), testEnv(), at(30));
    const launches = ((await timeline(player._id, { kind: 'launch' })).body as Page).entries;
    expect(launches.map((entry) => entry.event)).toEqual(['launch', 'launch']);
  });

  it('refuses a note from an operator without the users permission, and bad notes with the reason, storing nothing', async () => {
    const player = await createPlayer();
    const reader = (await createOperator(['users:read'])).token;
    const stranger = (await createOperator(['withdraws:write'])).token;
    expect((await addNote(player._id, { text: 'Looks fine' }, reader)).status).toBe(403);
    expect((await addNote(player._id, { text: 'Looks fine' }, stranger)).status).toBe(403);
    expect((await timeline(player._id, {}, stranger)).status).toBe(403);

    const blank = await addNote(player._id, { text: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual({ text: 'Write the note' });
    const long = await addNote(player._id, { text: 'x'.repeat(1001) });
    expect(long.status).toBe(400);
    expect(long.body.errors).toEqual({ text: 'At most 1,000 characters' });
    expect((await addNote(player._id, {})).body.errors).toEqual({ text: 'Write the note' });
    expect((await addNote(new Types.ObjectId(), { text: 'Nobody' })).status).toBe(404);
    expect((await timeline(player._id, { kind: 'everything' })).body.errors).toEqual({ kind: 'Unknown kind of entry' });
    expect(await PlayerNoteModel.countDocuments({ user: player._id })).toBe(0);

    // a note at the limit is kept whole, and its audit names it
    const full = await addNote(player._id, { text: 'y'.repeat(1000) });
    expect(full.status).toBe(201);
    const audit = await AuditEntryModel.findOne({ resource: 'users', record: String(player._id) }).lean();
    expect(audit).toMatchObject({ action: 'create', username: author, after: { note: 'y'.repeat(1000) } });
  });
});
