import { createHash } from 'node:crypto';
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

/**
 * The id of the one record a key names (a player's first open of a mission, a player's day): the same ObjectId for the same
 * key, so an upsert on it keeps one record per key on any engine (the `_id` index is the one every engine enforces).
 */
export const idOfKey = (...parts: string[]): Types.ObjectId =>
  new Types.ObjectId(createHash('sha256').update(parts.join(':')).digest().subarray(0, 12));
