import { toMicros, type BroadcastSegment } from '@gift/shared';
import { holdersAmong } from '../ledger/ledger.service';
import { finishedAmong } from '../missions/missions.service';
import { messageablePlayersPage, type PlayerConditions } from '../users/players.service';

const DAY_MS = 24 * 3600_000;
/** Players read per round trip while counting or recording an audience. */
const SEGMENT_PAGE = 2000;

export interface SegmentMember {
  _id: unknown;
  telegramId: number;
  language?: string | null;
}

/** The conditions a segment sets on the player's own record. */
function playerConditions(segment: BroadcastSegment, now: Date): PlayerConditions {
  const conditions: PlayerConditions = {};
  if (segment.language) conditions.language = segment.language;
  const seen: { $gte?: Date; $lt?: Date } = {};
  if (segment.activeWithinDays) seen.$gte = new Date(now.getTime() - segment.activeWithinDays * DAY_MS);
  if (segment.inactiveForDays) seen.$lt = new Date(now.getTime() - segment.inactiveForDays * DAY_MS);
  if (Object.keys(seen).length) conditions.lastSeenAt = seen;
  const joined: { $gte?: Date; $lte?: Date } = {};
  if (segment.joinedFrom) joined.$gte = new Date(segment.joinedFrom);
  if (segment.joinedTo) joined.$lte = new Date(segment.joinedTo);
  if (Object.keys(joined).length) conditions.createdAt = joined;
  // banned and frozen players receive no broadcast, whatever the segment says (finding 11): the schema refuses naming them
  conditions.status = 'active';
  return conditions;
}

/**
 * Walks the players a segment reaches now (active players who allow messages and meet every condition), a page at a time in id
 * order. The count an operator sees and the audience a start records come from this one walk, so they agree.
 */
export async function forEachSegmentPage(
  segment: BroadcastSegment,
  now: Date,
  visit: (members: SegmentMember[]) => Promise<void>,
): Promise<void> {
  // a segment saved before that rule, for banned or frozen players only, reaches nobody
  if (segment.status && segment.status !== 'active') return;
  const conditions = playerConditions(segment, now);
  let after: unknown = null;
  for (;;) {
    const page = await messageablePlayersPage(conditions, after as string | null, SEGMENT_PAGE);
    if (!page.length) return;
    after = page.at(-1)!._id;
    let members: SegmentMember[] = page;
    const ids = () => members.map((m) => String(m._id));
    if (segment.holds && members.length) {
      const holders = await holdersAmong(ids(), segment.holds.coin, toMicros(segment.holds.atLeast));
      members = members.filter((m) => holders.has(String(m._id)));
    }
    if (segment.mission && members.length) {
      const finished = await finishedAmong(ids(), segment.mission.id);
      members = members.filter((m) => finished.has(String(m._id)) === segment.mission!.done);
    }
    if (members.length) await visit(members);
    if (page.length < SEGMENT_PAGE) return;
  }
}

/** How many players a segment reaches now. */
export async function countSegment(segment: BroadcastSegment, now = new Date()): Promise<number> {
  let count = 0;
  await forEachSegmentPage(segment, now, (members) => {
    count += members.length;
    return Promise.resolve();
  });
  return count;
}
