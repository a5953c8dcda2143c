import { objectId, type Id } from '../../db/ids';
import { AccountModel } from './account.model';
import { AccountGrantModel } from './accountGrant.model';

/** Operators among these ids, with what they may see and whether they are enabled (alerts go to enabled ones only). */
export async function operatorsByIds(ids: Id[]) {
  const rows = await AccountModel.find({ _id: { $in: ids.map(objectId) } }, { username: 1, permissions: 1, enabled: 1 }).lean();
  return rows.map((row) => ({ id: String(row._id), username: row.username, permissions: row.permissions ?? [], enabled: !!row.enabled }));
}

/** Access waiting for a second operator, asked since `since`: who asked, for whom, and what. */
export async function grantsWaitingSince(since: Date) {
  const rows = await AccountGrantModel.find(
    { status: 'pending', createdAt: { $gte: since } },
    { account: 1, username: 1, permissions: 1, requestedBy: 1, createdAt: 1 },
  )
    .sort({ createdAt: 1 })
    .limit(200)
    .lean();
  return rows.map((row) => ({
    id: String(row._id),
    account: String(row.account),
    username: row.username,
    permissions: row.permissions,
    requestedBy: String(row.requestedBy),
    createdAt: row.createdAt,
  }));
}

/** Access waiting that this operator could decide: asked by someone else, for someone else. */
export function countGrantsWaitingFor(accountId: string): Promise<number> {
  const me = objectId(accountId);
  return AccountGrantModel.countDocuments({ status: 'pending', requestedBy: { $ne: me }, account: { $ne: me } });
}
