import { objectId } from '../../db/ids';
import { AppConfigModel } from './appConfig.model';

/** A canned reason to reject a Manual claim, as the console edits and picks it: its id, its English and its Persian. */
interface RejectReason {
  id: string;
  en: string;
  fa: string;
}

/** App Config's canned reasons as stored (subdocuments with their own `_id`), presented with their ids. */
export const presentRejectReasons = (reasons: Array<{ _id: unknown; en?: string | null; fa?: string | null }> = []): RejectReason[] =>
  reasons.map((reason) => ({ id: String(reason._id), en: reason.en ?? '', fa: reason.fa ?? '' }));

/** App Config's canned reasons to reject a claim, for a reviewer to pick from. */
export async function cannedRejectReasons(): Promise<RejectReason[]> {
  const config = await AppConfigModel.findOne({ key: 'app' }, { rejectReasons: 1 }).lean();
  return presentRejectReasons(config?.rejectReasons);
}

/** One canned reason by its id; null when App Config no longer has it. */
export async function findRejectReason(id: string): Promise<RejectReason | null> {
  const config = await AppConfigModel.findOne({ key: 'app', 'rejectReasons._id': objectId(id) }, { rejectReasons: 1 }).lean();
  return presentRejectReasons(config?.rejectReasons).find((reason) => reason.id === id) ?? null;
}
