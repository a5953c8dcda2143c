import { Types } from 'mongoose';

/**
 * Where a page of a feed merged from several collections starts: the last entry shown, as its time, its record's id, and the
 * rank of its event among those one record has at one moment (a mission's Go, claim and decision). The feed is ordered newest
 * first by (time, id, rank), so two entries with one timestamp, in one collection or two, keep one order from page to page.
 */
export interface TimeCursor {
  time: Date;
  id: string;
  rank: number;
}

/** One collection's part of a feed's page: the records of a time field after the cursor, and the order its index gives. */
export interface TimeSlice {
  /** Conditions on `field` and _id alone: the caller adds its own equality (the player) before them. */
  filter: Record<string, unknown>;
  sort: Record<string, -1>;
  limit: number;
}

/**
 * The records of one event (a time field, at `rank`) that come after `before` in the feed's order, newest first, at most
 * `limit` of them: served by an index on (<equality fields>, field: -1, _id: -1), which reads no more than `limit` keys.
 */
export function timeSlice(field: string, rank: number, before: TimeCursor | null, limit: number): TimeSlice {
  const sort = { [field]: -1, _id: -1 } as const;
  if (!before) return { filter: { [field]: { $ne: null } }, sort, limit };
  // at the cursor's own time and record, an event of lower rank is still to come; one of equal or higher rank was shown
  const sameRecord = rank < before.rank ? '$lte' : '$lt';
  const id = new Types.ObjectId(before.id);
  return {
    filter: {
      [field]: { $ne: null, $lte: before.time },
      $or: [{ [field]: { $lt: before.time } }, { _id: { [sameRecord]: id } }],
    },
    sort,
    limit,
  };
}
