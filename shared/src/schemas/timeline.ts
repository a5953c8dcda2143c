import { z } from 'zod';

/**
 * What a player's timeline shows (issue 34, item 6), each a filter of the console's Timeline tab: launches of the app,
 * mission progress (Go, claim, decision), ledger entries, withdrawals (requested, decided, paid), status changes,
 * broadcasts received, other operator actions on the player, and operators' internal notes.
 */
export const TIMELINE_KINDS = ['launch', 'mission', 'ledger', 'withdrawal', 'status', 'broadcast', 'operator', 'note'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** How many entries one page of the timeline holds at most. */
const TIMELINE_PAGE_MAX = 100;

/**
 * Where the next page starts: the last entry shown, as `<ms>.<record id>.<rank>` (its time, its record, and the rank of its
 * event among the record's events at one moment). Opaque to the console, which sends back what the last page answered.
 */
const TIMELINE_CURSOR = /^\d{1,15}\.[0-9a-f]{24}\.\d{1,2}$/;

/** GET /api/admin/timeline/:id: a page of a player's timeline, of one kind or all, after a cursor. */
export const timelineQuery = z.object({
  kind: z.enum(TIMELINE_KINDS, { error: 'Unknown kind of entry' }).optional(),
  before: z.string().regex(TIMELINE_CURSOR, 'Invalid cursor').optional(),
  limit: z.coerce.number().int('Must be a whole number').min(1, 'At least 1').max(TIMELINE_PAGE_MAX, 'At most 100').default(25),
});

/** POST /api/admin/timeline/:id/notes: an operator's internal note on a player, never shown to the player. */
export const playerNoteInput = z.object({
  text: z.string({ error: 'Write the note' }).trim().min(1, 'Write the note').max(1000, 'At most 1,000 characters'),
});
