import type { Types } from 'mongoose';
import type { TimelineKind } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId } from '../../db/ids';
import { timeSlice, type TimeCursor, type TimeSlice } from '../../db/timePage';
import { recordAudit, type Operator } from '../audit/audit.service';
import { auditMomentsOf } from '../audit/auditHistory.service';
import { broadcastMomentsOf } from '../broadcasts/broadcastHistory.service';
import { findCoins } from '../coins/giftCoins.service';
import { ledgerMomentsOf } from '../ledger/ledgerHistory.service';
import { MISSION_MOMENTS, missionMomentsOf, missionTitles, type MissionMoment } from '../missions/missionHistory.service';
import { playerNames } from '../users/players.service';
import { registerLaunchRecorder } from '../users/users.service';
import { WITHDRAWAL_MOMENTS, withdrawalMomentsOf, type WithdrawalMoment } from '../withdrawals/withdrawalHistory.service';
import { launchId, LaunchModel, PlayerNoteModel } from './timeline.models';

/** A record's console page an entry opens: `/<resource>/<id>` (the console knows which view each resource has). */
interface EntryLink {
  resource: 'user-missions' | 'withdraws' | 'broadcasts' | 'users' | 'stakes' | 'mining-sessions';
  id: string;
}

/**
 * One line of a player's timeline. `event` names what happened (`mission.claimed`, `withdrawal.done`); the other fields are
 * what the console's line reads (an amount with its coin's symbol, a mission's title, a status, a reason, a note's text).
 */
interface TimelineEntry {
  /** Unique in the feed: the event and its record. */
  id: string;
  at: Date;
  kind: TimelineKind;
  event: string;
  /** Where the next page starts when this is the last entry shown. */
  cursor: string;
  amount?: string;
  symbol?: string;
  title?: string;
  status?: string;
  reason?: string;
  text?: string;
  /** The operator who did it, or wrote the note. */
  author?: string;
  /** An operator's write: its action and the fields it changed. */
  action?: string;
  fields?: string[];
  /** A ledger entry's reason (mission, referral, withdrawal…). */
  ledgerReason?: string;
  link: EntryLink | null;
}

/** What one source gives before the coins are named: an entry without its cursor, and the coin its amount is in. */
type Moment = Omit<TimelineEntry, 'cursor' | 'id' | 'symbol'> & { record: string; rank: number; coin?: string; mission?: string };

/** One kind of record's part of a page: at most `slice.limit` moments after the cursor, newest first. */
interface Source {
  kind: TimelineKind;
  rank: number;
  field: string;
  read: (playerId: string, slice: TimeSlice) => Promise<Moment[]>;
}

const LEDGER_LINKS: Record<string, EntryLink['resource']> = {
  UserMission: 'user-missions',
  Withdrawal: 'withdraws',
  Stake: 'stakes',
  MiningSession: 'mining-sessions',
};

function missionSource(moment: MissionMoment, rank: number): Source {
  return {
    kind: 'mission',
    rank,
    field: MISSION_MOMENTS[moment],
    read: async (playerId, slice) =>
      (await missionMomentsOf(playerId, moment, slice)).map((row) => ({
        record: row.id,
        rank,
        at: row.at,
        kind: 'mission',
        event: `mission.${moment}`,
        mission: row.mission,
        status: row.status,
        amount: row.reward,
        coin: row.coin,
        ...(moment === 'rejected' && row.reason ? { reason: row.reason } : {}),
        link: { resource: 'user-missions', id: row.id },
      })),
  };
}

function withdrawalSource(moment: WithdrawalMoment, rank: number): Source {
  return {
    kind: 'withdrawal',
    rank,
    field: WITHDRAWAL_MOMENTS[moment],
    read: async (playerId, slice) =>
      (await withdrawalMomentsOf(playerId, moment, slice)).map((row) => ({
        record: row.id,
        rank,
        at: row.at,
        kind: 'withdrawal',
        // the end of a withdrawal is its payment, or its rejection
        event: `withdrawal.${moment === 'closed' ? (row.status === 'rejected' ? 'rejected' : 'done') : moment}`,
        status: row.status,
        amount: row.amount,
        coin: row.coin,
        ...(row.status === 'rejected' && moment === 'closed' && row.reason ? { reason: row.reason } : {}),
        link: { resource: 'withdraws', id: row.id },
      })),
  };
}

/** Operators' writes on the player: status changes (a ban, a freeze, a return to active) or the rest. */
function auditSource(kinds: Array<'status' | 'operator'>): Source {
  const only = kinds.length === 2 ? undefined : kinds[0] === 'status';
  return {
    kind: kinds[0]!,
    rank: 0,
    field: 'createdAt',
    read: async (playerId, slice) =>
      (await auditMomentsOf('users', playerId, slice, only, 'note')).map((row) => ({
        record: row.id,
        rank: 0,
        at: row.at,
        kind: row.status ? 'status' : 'operator',
        event: row.status ? `status.${row.status}` : `operator.${row.action}`,
        author: row.operator,
        action: row.action,
        fields: row.fields,
        ...(row.status ? { status: row.status } : {}),
        ...(row.reason ? { reason: row.reason } : {}),
        link: null,
      })),
  };
}

const SOURCES: Record<Exclude<TimelineKind, 'status' | 'operator'>, Source[]> = {
  launch: [
    {
      kind: 'launch',
      rank: 0,
      field: 'at',
      read: async (playerId, slice) => {
        const rows = await LaunchModel.find({ user: objectId(playerId), ...slice.filter })
          .sort(slice.sort)
          .limit(slice.limit)
          .lean();
        return rows.map((row) => ({ record: String(row._id), rank: 0, at: row.at, kind: 'launch', event: 'launch', link: null }));
      },
    },
  ],
  mission: [missionSource('started', 0), missionSource('claimed', 1), missionSource('done', 2), missionSource('rejected', 3)],
  ledger: [
    {
      kind: 'ledger',
      rank: 0,
      field: 'createdAt',
      read: async (playerId, slice) =>
        (await ledgerMomentsOf(playerId, slice)).map((row) => {
          const resource = LEDGER_LINKS[row.refType];
          return {
            record: row.id,
            rank: 0,
            at: row.at,
            kind: 'ledger',
            event: 'ledger',
            amount: row.amount,
            coin: row.coin,
            ledgerReason: row.reason,
            link: resource && row.refId ? { resource, id: row.refId } : null,
          };
        }),
    },
  ],
  withdrawal: [withdrawalSource('requested', 0), withdrawalSource('approved', 1), withdrawalSource('closed', 2)],
  broadcast: [
    {
      kind: 'broadcast',
      rank: 0,
      field: 'sentAt',
      read: async (playerId, slice) =>
        (await broadcastMomentsOf(playerId, slice)).map((row) => ({
          record: row.id,
          rank: 0,
          at: row.at,
          kind: 'broadcast',
          event: 'broadcast',
          text: row.text,
          link: { resource: 'broadcasts', id: row.broadcast },
        })),
    },
  ],
  note: [
    {
      kind: 'note',
      rank: 0,
      field: 'createdAt',
      read: async (playerId, slice) => {
        const rows = await PlayerNoteModel.find({ user: objectId(playerId), ...slice.filter })
          .sort(slice.sort)
          .limit(slice.limit)
          .lean();
        return rows.map((row) => ({
          record: String(row._id),
          rank: 0,
          at: row.createdAt,
          kind: 'note',
          event: 'note',
          text: row.text,
          author: row.author,
          link: null,
        }));
      },
    },
  ],
};

/** The sources a page reads: every kind's, or one kind's. */
function sourcesFor(kind: TimelineKind | undefined): Source[] {
  if (kind === 'status' || kind === 'operator') return [auditSource([kind])];
  if (kind) return SOURCES[kind];
  return [...Object.values(SOURCES).flat(), auditSource(['status', 'operator'])];
}

/** What a page's moments name, read once for the page: the coins' symbols and the missions' titles. */
async function namesOf(moments: Moment[]) {
  const distinct = (ids: Array<string | undefined>) => [...new Set(ids.filter((id): id is string => !!id))];
  const coins = distinct(moments.map((moment) => moment.coin));
  const [found, titles] = await Promise.all([
    coins.length ? findCoins(coins, { symbol: 1 }) : [],
    missionTitles(distinct(moments.map((moment) => moment.mission))),
  ]);
  return { symbols: new Map(found.map((coin) => [String(coin._id), coin.symbol])), titles };
}

/** A moment as the console reads it: with its cursor, its coin's symbol and its mission's title. */
function entryOf({ record, rank, coin, mission, ...moment }: Moment, names: Awaited<ReturnType<typeof namesOf>>): TimelineEntry {
  return {
    ...moment,
    id: `${moment.event}:${record}`,
    cursor: `${moment.at.getTime()}.${record}.${rank}`,
    ...(coin ? { symbol: names.symbols.get(coin) ?? '' } : {}),
    ...(mission ? { title: names.titles.get(mission) ?? '' } : {}),
  };
}

function readCursor(cursor: string | undefined): TimeCursor | null {
  if (!cursor) return null;
  const [ms, id, rank] = cursor.split('.');
  return { time: new Date(Number(ms)), id: id!, rank: Number(rank) };
}

/** The feed's order, newest first: by time, then record id, then the event's rank within its record. */
function newestFirst(a: Moment, b: Moment): number {
  return b.at.getTime() - a.at.getTime() || (a.record < b.record ? 1 : a.record > b.record ? -1 : 0) || b.rank - a.rank;
}

/**
 * One page of a player's timeline, newest first, of every kind or one: each source reads at most `limit` records after the
 * cursor through its index on (player, time, _id), the pages are merged and cut to `limit`. `next` is where the following page
 * starts, null when this one ended the feed.
 */
export async function playerTimeline(playerId: string, query: { kind?: TimelineKind; before?: string; limit: number }) {
  const before = readCursor(query.before);
  const moments = (
    await Promise.all(
      sourcesFor(query.kind).map((source) => source.read(playerId, timeSlice(source.field, source.rank, before, query.limit))),
    )
  ).flat();
  const page = moments.filter((moment) => moment.at instanceof Date).sort(newestFirst);
  const shown = page.slice(0, query.limit);
  const names = await namesOf(shown);
  const entries = shown.map((moment) => entryOf(moment, names));
  return { entries, next: page.length >= query.limit ? entries[entries.length - 1]!.cursor : null };
}

/** An operator's internal note on a player: stored, audited, and shown on their timeline; never sent to the player. */
export async function addPlayerNote(playerId: string, text: string, operator: Operator): Promise<TimelineEntry> {
  if (!(await playerNames(playerId))) throw new AppError('NOT_FOUND');
  const note = await PlayerNoteModel.create({ user: objectId(playerId), text, account: operator.id, author: operator.username });
  // on the player's record, so the audit names and opens the player; the timeline shows the note itself, not this write
  await recordAudit({ operator, action: 'create', resource: 'users', record: playerId, before: null, after: { note: text } });
  const moment: Moment = {
    record: String(note._id),
    rank: 0,
    at: note.createdAt,
    kind: 'note',
    event: 'note',
    text,
    author: operator.username,
    link: null,
  };
  return entryOf(moment, { symbols: new Map(), titles: new Map() });
}

/** Records a launch once, however many of its first requests arrive together (its id is derived from the player and time). */
async function recordLaunch(playerId: Types.ObjectId, at: Date): Promise<void> {
  try {
    await LaunchModel.updateOne({ _id: launchId(playerId, at) }, { $setOnInsert: { user: playerId, at } }, { upsert: true });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
}
registerLaunchRecorder(recordLaunch);
