import type { JobStep } from '../jobs/jobs.service';
import { proofImagesUploadedBefore, removeProofImages } from '../proofs/proofs.service';
import {
  countEarlierCompletions,
  finishMissionCreditsOfOlderVersion,
  countUncountedProgress,
  proofImagesInUse,
  settleStaleSeats,
} from './missions.service';

/**
 * The missions' part of the money recovery: places held on a mission and not yet settled, progress whose Go was not yet
 * counted in its player's missionsCount (then the places of progress older than the counter, counted once). Credits are operations of the engine (`mission-credit`), finished with the others; this
 * finishes the ones an older version left owed (once: afterwards a single read).
 */
export const missionRecovery: readonly JobStep[] = [
  { name: 'missions', run: () => finishMissionCreditsOfOlderVersion() },
  { name: 'missionSeats', run: ({ graceMs }) => settleStaleSeats(graceMs) },
  // after the seats: settling a first claim's hold may write its progress, owed to missionsCount
  { name: 'missionCounts', run: ({ graceMs }) => countUncountedProgress(graceMs) },
  { name: 'completionsCounted', run: () => countEarlierCompletions(), routine: true },
];

/** A proof picture is sent just before its claim: one no claim carries a day later was abandoned, or replaced by a new proof. */
const PROOF_IMAGE_KEPT_MS = 24 * 3_600_000;

export async function removeUnclaimedProofImages(now: Date): Promise<number> {
  const old = await proofImagesUploadedBefore(new Date(now.getTime() - PROOF_IMAGE_KEPT_MS), 200);
  const inUse = await proofImagesInUse(old);
  return removeProofImages(old.filter((id) => !inUse.has(id)));
}
