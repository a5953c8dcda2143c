import type { Types } from 'mongoose';
import { AppError } from '../../lib/errors';
import { entryKeys, runOperation, type OperationKind } from '../ledger/ledger.service';
import { MiningSessionModel } from './miningSession.model';

/**
 * A finished session's move to the wallet, as a kind of the money engine (ledger/engine.ts): `mining-move`, one per session
 * (keyed `mining:<sessionId>`, as the credit was before the engine). The operation is recorded first; its admit check marks
 * the session moved (a conditional `movedAt: null → the move's time`, so of simultaneous moves one takes it, and a refund of
 * a Stars shop session can no longer take it back); the engine then credits the player from `rewards:mining`. A session
 * carries no flag of money owed: once admitted the operation stands, and a crash anywhere is finished by a retry or the
 * engine's sweep. A frozen or banned player's move, admitted before their hold, stays owed and is paid once they are active.
 * Registered at the composition root (server/src/moneyKinds.ts).
 */

const MINING_MOVE = 'mining-move';

interface MoveData {
  sessionId: Types.ObjectId;
  movedAt: Date;
}

/** The session marked moved by this operation, or found moved already (only its own key moves a session); gone: refused. */
async function takeSession(operation: { data?: unknown }): Promise<AppError | null> {
  const { sessionId, movedAt } = operation.data as MoveData;
  const marked = await MiningSessionModel.updateOne({ _id: sessionId, movedAt: null }, { $set: { movedAt } });
  if (marked.modifiedCount || (await MiningSessionModel.exists({ _id: sessionId, movedAt: { $ne: null } }))) return null;
  // removed while it waited to move (a refund of the Stars shop purchase behind it): nothing is owed
  return new AppError('NOTHING_TO_MOVE');
}

const miningMoveKind: OperationKind = { kind: MINING_MOVE, admit: takeSession, steps: [] };

/** The session as its move needs it. */
export interface MovableSession {
  _id: Types.ObjectId;
  user: Types.ObjectId;
  coin: Types.ObjectId;
  /** Micro-units, as stored. */
  amount: number;
}

/**
 * Moves a finished session's coins to its player, once per session however often it is called: `applied` is true for the
 * one call that credited them. The player's own doing: refused while they are frozen or banned (the move, once admitted,
 * stays owed). Refused with NOTHING_TO_MOVE when the session is gone.
 */
export function moveSession(session: MovableSession, movedAt: Date) {
  return runOperation({
    kind: MINING_MOVE,
    key: entryKeys.miningMove(session._id),
    refType: 'MiningSession',
    refId: String(session._id),
    players: [{ user: session.user, coin: session.coin, amount: BigInt(session.amount), reason: 'mining' }],
    house: [{ account: 'rewards:mining', coin: session.coin, amount: -BigInt(session.amount) }],
    data: { sessionId: session._id, movedAt } satisfies MoveData,
    guarded: true,
  });
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const miningKinds: readonly OperationKind[] = [miningMoveKind];
