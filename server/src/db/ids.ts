import { Types } from 'mongoose';
import { OBJECT_ID_PATTERN } from '@gift/shared';
import { badInput } from '../lib/errors';

/** A document's id as services receive it: a hex string from a request or an ObjectId from another document. */
export type Id = string | Types.ObjectId;

/** Whether a value is a record's id as requests and records carry it: 24 hex digits (never the 12-byte form mongoose also takes). */
export const isId = (value: unknown): value is Id =>
  value instanceof Types.ObjectId || (typeof value === 'string' && OBJECT_ID_PATTERN.test(value));

/**
 * The ObjectId a query needs, whichever form the id came in. An id that is not one (a typo, a path segment such as `x`)
 * is the caller's mistake: 400 with a field message, never a driver error answered as 500.
 */
export const objectId = (id: Id): Types.ObjectId => {
  if (!isId(id)) throw badInput({ id: 'Invalid id' });
  return new Types.ObjectId(String(id));
};

/** A key a player's app sent, scoped to the player: two players' equal keys never meet. */
export const scopedKey = (playerId: Id, clientKey: string): string => `${String(playerId)}:${clientKey}`;
