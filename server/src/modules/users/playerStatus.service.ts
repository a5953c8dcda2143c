import { setTimeout as sleep } from 'node:timers/promises';
import type { PlayerStatus } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { faultPoint } from '../../lib/faults';
import { guardedEntriesInFlight, heldPlayers, holdPlayer, releasePlayer } from '../ledger/ledger.service';
import { UserModel, type UserDocument } from './user.model';

/** How long a freeze waits for the player's own entries recorded before it to be applied or refused. */
const IN_FLIGHT_WAIT_MS = 10_000;
const IN_FLIGHT_POLL_MS = 20;

export interface StatusChange {
  status: PlayerStatus;
  statusReason?: string;
  fa?: { statusReason?: string };
}

/** The reason a frozen or banned player reads, in their language (Persian when written, English otherwise). */
export function statusReasonFor(player: Pick<UserDocument, 'language' | 'statusReason' | 'fa'>): string {
  const persian = player.fa?.statusReason;
  return player.language === 'fa' && persian ? persian : player.statusReason;
}

/** Why this player cannot do what they asked: null when they are active. `money` asks about moving money (a frozen player may still look). */
export function standingRefusal(player: UserDocument, { money }: { money: boolean }): AppError | null {
  const status = player.status ?? 'active';
  if (status === 'banned') return new AppError('ACCOUNT_BANNED', { reason: statusReasonFor(player) });
  if (status === 'frozen' && money) return new AppError('ACCOUNT_FROZEN', { reason: statusReasonFor(player) });
  return null;
}

/**
 * Brings the ledger's hold in line with the player's status: frozen and banned players' own entries are refused from now
 * on, and the entries they recorded before are waited for (applied or refused), so that once this returns nothing of
 * theirs is credited or debited until they are active again. A repeat, or the sweep after a crash between the status and
 * the hold, does the same again.
 */
const codeFor = (status: PlayerStatus) => (status === 'banned' ? 'ACCOUNT_BANNED' : 'ACCOUNT_FROZEN');

async function settleHold(player: { _id: Id; status: PlayerStatus; statusReason: string }): Promise<void> {
  if (player.status === 'active') {
    await releasePlayer(player._id);
    return;
  }
  const heldAt = new Date();
  await holdPlayer(player._id, codeFor(player.status), player.statusReason);
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  // an entry recorded before the hold may still be applied: wait for it. One a crash left behind is refused by the sweep
  // (it reads the hold too), so the wait is bounded
  while ((await guardedEntriesInFlight(player._id, heldAt)) > 0 && Date.now() < deadline) await sleep(IN_FLIGHT_POLL_MS);
}

/**
 * Sets a player's status with the reason they read. A freeze or a ban holds their own money moves (claims, mining, stakes,
 * withdrawals) in the ledger as well as at the door, so a claim racing the freeze is either credited before this returns or
 * refused; a ban also ends their web sign-in tokens. Back to active clears the reason. Returns the updated player.
 */
export async function setPlayerStatus(userId: Id, change: StatusChange, now: Date): Promise<UserDocument> {
  const active = change.status === 'active';
  const updated = await UserModel.findOneAndUpdate(
    { _id: objectId(userId) },
    {
      $set: {
        status: change.status,
        statusReason: active ? '' : (change.statusReason ?? ''),
        'fa.statusReason': active ? '' : (change.fa?.statusReason ?? ''),
        statusChangedAt: now,
      },
      // a ban ends the player's web sign-in tokens at once, and they stay ended after the ban is lifted
      ...(change.status === 'banned' ? { $inc: { tokenVersion: 1 } } : {}),
    },
    { returnDocument: 'after', runValidators: true },
  );
  if (!updated) throw new AppError('NOT_FOUND');
  await faultPoint('status:after-player');
  await settleHold(updated);
  return updated;
}

/**
 * Puts right holds a crash left out of line with the statuses (a freeze that stopped between the player and the ledger):
 * the same step the freeze takes. Returns how many it changed.
 */
export async function reconcileHolds(olderThanMs = 30_000): Promise<number> {
  // a status set within the grace is still being settled by its own request
  const settled = (player: { statusChangedAt?: Date | null }) =>
    !player.statusChangedAt || player.statusChangedAt.getTime() <= Date.now() - olderThanMs;
  const [restricted, held] = await Promise.all([
    UserModel.find({ status: { $in: ['frozen', 'banned'] } }, { status: 1, statusReason: 1, statusChangedAt: 1 }).lean(),
    heldPlayers(),
  ]);
  const holdOf = new Map(held.map((hold) => [String(hold._id), hold.code]));
  let changed = 0;
  for (const player of restricted) {
    const code = holdOf.get(String(player._id));
    holdOf.delete(String(player._id));
    if (code === codeFor(player.status) || !settled(player)) continue;
    await settleHold(player);
    changed++;
  }
  // holds of players active again (or gone)
  for (const id of holdOf.keys()) {
    const player = await UserModel.findById(id, { status: 1, statusChangedAt: 1 }).lean();
    if ((player && !settled(player)) || player?.status === 'frozen' || player?.status === 'banned') continue;
    await releasePlayer(id);
    changed++;
  }
  return changed;
}
