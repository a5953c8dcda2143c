import { Types } from 'mongoose';

/** A document's id as services receive it: a hex string from a request or an ObjectId from another document. */
export type Id = string | Types.ObjectId;

/** The ObjectId a query needs, whichever form the id came in. */
/** The ObjectId a query needs, whichever form the id came in. */
export const objectId = (id: Id): Types.ObjectId => new Types.ObjectId(String(id));

/** A key a player's app sent, scoped to the player: two players' equal keys never meet. */
export const scopedKey = (playerId: Id, clientKey: string): string => `${String(playerId)}:${clientKey}`;
