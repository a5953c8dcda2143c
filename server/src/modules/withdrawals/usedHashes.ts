import type { Types } from 'mongoose';
import { isDuplicateKey } from '../../db/mongoErrors';
import { UsedTxHashModel } from './payoutBatch.model';

/** Who a used hash paid: a withdrawal, or (a batch transaction) a batch. */
export interface HashOwner {
  withdrawal?: Types.ObjectId | null;
  batch?: Types.ObjectId | null;
}

const same = (a: Types.ObjectId | null | undefined, b: Types.ObjectId | null | undefined) => String(a ?? '') === String(b ?? '');

/**
 * Records `hash` as used by `owner`, unless it already is by someone: a single conditional upsert keyed by the hash,
 * which has one winner however many claim it at once (on MongoDB the unique index turns a lost race into a duplicate
 * key, read again). True when the hash is now this owner's (claimed now or before).
 */
export async function claimHash(hash: string, kind: 'tx' | 'message', owner: HashOwner): Promise<boolean> {
  const claim = () =>
    UsedTxHashModel.findOneAndUpdate(
      { hash },
      { $setOnInsert: { hash, kind, withdrawal: owner.withdrawal ?? null, batch: owner.batch ?? null } },
      { upsert: true, returnDocument: 'after' },
    ).lean();
  const record = await claim().catch((error: unknown) => {
    if (isDuplicateKey(error)) return claim();
    throw error;
  });
  return !!record && same(record.withdrawal, owner.withdrawal) && same(record.batch, owner.batch);
}

/** Who used `hash`, or null when nobody did. */
export function usedBy(hash: string) {
  return UsedTxHashModel.findOne({ hash }, { withdrawal: 1, batch: 1, kind: 1 }).lean();
}

/** Gives back the hashes a decision that did not stand had claimed for this withdrawal. */
export async function releaseHashes(hashes: string[], withdrawal: Types.ObjectId): Promise<void> {
  await UsedTxHashModel.deleteMany({ hash: { $in: hashes }, withdrawal });
}
