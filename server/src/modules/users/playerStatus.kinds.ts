import { setTimeout as sleep } from 'node:timers/promises';
import type { Types } from 'mongoose';
import type { PlayerStatus } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { guardedEntriesInFlight, holdPlayer, releasePlayer, type OperationKind } from '../ledger/ledger.service';
import { UserModel } from './user.model';

/**
 * A player's status (a freeze, a ban, back to active) as a kind of the money engine (ledger/engine.ts): `player-status`, an
 * operation with no postings, recorded first (one per change), whose steps set the ledger's hold as the change says (a freeze
 * holds the player's money at once), then write the player's status and settle the hold again as the status now says. The
 * call that recorded it, or the engine's sweep after a crash (the hold set, the status not yet written), finish it: the users
 * module keeps no recoverer of its own, and the engine's points (`ledger:after-step:player-status`) are where a crash test
 * stops it.
 * - one change stands over an older one: the status is written only over one set at or before its own time, so a change a
 *   crash held back and the sweep finishes later does not undo a newer one;
 * - after the status, the hold follows the player's status as it is, read again once written: of two changes at once, the
 *   last to write the hold sees the last status and leaves the hold as it says.
 * Registered at the composition root (server/src/moneyKinds.ts).
 */

export const PLAYER_STATUS = 'player-status';

/** What a status change records (its operation's `data`). */
export interface StatusData {
  user: Types.ObjectId;
  status: PlayerStatus;
  statusReason: string;
  faReason: string;
  at: Date;
}

/** How long a freeze waits for the player's own entries recorded before it to be applied or refused. */
const IN_FLIGHT_WAIT_MS = 10_000;
const IN_FLIGHT_POLL_MS = 20;

const codeFor = (status: PlayerStatus) => (status === 'banned' ? 'ACCOUNT_BANNED' : 'ACCOUNT_FROZEN');

/**
 * Brings the ledger's hold in line with this status: frozen and banned players' own entries are refused from now on, and the
 * entries they recorded before are waited for (applied or refused), so that once this returns nothing of theirs is credited
 * or debited until they are active again. One a crash left behind is refused by the sweep (it reads the hold too), so the
 * wait is bounded.
 */
async function settleHold(userId: Types.ObjectId, player: { status: PlayerStatus; statusReason: string }): Promise<void> {
  if (player.status === 'active') {
    await releasePlayer(userId);
    return;
  }
  const heldAt = new Date();
  await holdPlayer(userId, codeFor(player.status), player.statusReason);
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  while ((await guardedEntriesInFlight(userId, heldAt)) > 0 && Date.now() < deadline) await sleep(IN_FLIGHT_POLL_MS);
}

const statusOf = (userId: Types.ObjectId) => UserModel.findById(userId, { status: 1, statusReason: 1 }).lean();

/**
 * The hold as the player's status says now, settled again until the status read after it is the one it was settled for. Always
 * settled at least once (never taken as already right): the last write of the hold is then one followed by a read of the last
 * status, whatever other changes of the player ran at the same time.
 */
async function holdAsTheStatusSays(userId: Types.ObjectId): Promise<void> {
  let player = await statusOf(userId);
  for (let round = 0; player && round < 5; round++) {
    await settleHold(userId, player);
    const after = await statusOf(userId);
    if (!after || (after.status === player.status && after.statusReason === player.statusReason)) return;
    player = after;
  }
}

const playerStatusKind: OperationKind = {
  kind: PLAYER_STATUS,
  // the player must exist: otherwise the change is refused and leaves nothing
  admit: async (operation) => ((await UserModel.exists({ _id: (operation.data as StatusData).user })) ? null : new AppError('NOT_FOUND')),
  steps: [
    // the ledger first, as the change says, so a freeze holds the player's money at once (and waits for what is in flight)
    {
      name: 'hold',
      run: async (operation) => {
        const { user, status, statusReason } = operation.data as StatusData;
        await settleHold(user, { status, statusReason });
      },
    },
    // then the player's status, and the hold again as the status now says (a newer change may have stood over this one)
    {
      name: 'player',
      run: async (operation) => {
        const { user, status, statusReason, faReason, at } = operation.data as StatusData;
        const active = status === 'active';
        await UserModel.updateOne(
          // over a status set at or before this change only: a newer change stands
          { _id: user, $or: [{ statusChangedAt: null }, { statusChangedAt: { $lte: at } }] },
          {
            $set: {
              status,
              statusReason: active ? '' : statusReason,
              'fa.statusReason': active ? '' : faReason,
              statusChangedAt: at,
            },
            // a ban ends the player's web sign-in tokens at once, and they stay ended after the ban is lifted
            ...(status === 'banned' ? { $inc: { tokenVersion: 1 } } : {}),
          },
        );
        await holdAsTheStatusSays(user);
      },
    },
  ],
};

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const playerStatusKinds: readonly OperationKind[] = [playerStatusKind];
