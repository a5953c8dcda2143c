import { Types } from 'mongoose';
import { PLAYER_STATUSES, type PlayerStatus } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { finishInterrupted, runOperation } from '../ledger/ledger.service';
import { PLAYER_STATUS, type StatusData } from './playerStatus.kinds';
import { UserModel, type UserDocument } from './user.model';

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
 * Sets a player's status with the reason they read. A freeze or a ban holds their own money moves (claims, mining, stakes,
 * withdrawals) in the ledger as well as at the door, so a claim racing the freeze is either credited before this returns or
 * refused; a ban also ends their web sign-in tokens. Back to active clears the reason. One operation of the money engine
 * (`player-status`, playerStatus.kinds.ts): the ledger's hold as the change says, then the player's status (and the hold again
 * as the status now says), each a step, so a crash between them is finished by the engine's sweep. Returns the updated player.
 */
export async function setPlayerStatus(userId: Id, change: StatusChange, now: Date): Promise<UserDocument> {
  if (!PLAYER_STATUSES.includes(change.status)) throw new AppError('BAD_INPUT');
  const user = objectId(userId);
  const data: StatusData = {
    user,
    status: change.status,
    statusReason: change.statusReason ?? '',
    faReason: change.fa?.statusReason ?? '',
    at: now,
  };
  await runOperation({
    kind: PLAYER_STATUS,
    key: `status:${String(user)}:${new Types.ObjectId().toHexString()}`,
    refType: 'User',
    refId: String(user),
    players: [],
    house: [],
    data: { ...data },
  });
  const updated = await UserModel.findById(user);
  if (!updated) throw new AppError('NOT_FOUND');
  return updated;
}

/**
 * The status changes a crash left half done (recorded, or the hold set and the status not yet written) for longer than `olderThanMs`, finished
 * now by the engine: the payouts' job does this before it signs, so no new batch pays a player frozen or banned.
 */
export function finishStatusChanges(olderThanMs: number): Promise<number> {
  return finishInterrupted(olderThanMs, [PLAYER_STATUS]);
}
