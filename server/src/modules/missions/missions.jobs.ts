import type { JobStep } from '../jobs/jobs.service';
import { proofImagesUploadedBefore, removeProofImages } from '../proofs/proofs.service';
import {
  countEarlierCompletions,
  countStartsOfOlderVersion,
  finishMissionCreditsOfOlderVersion,
  finishPlacesOfOlderVersion,
  forgetDonePlaceKeys,
  proofImagesInUse,
} from './missions.service';

/**
 * The missions' part of the money recovery. Go's, credits, reviews and rejections are operations of the engine, finished
 * with the others (a mission's places and a player's counts among their effects); this finishes, once, what an older version
 * left owed (credits, places held by hand, Go's uncounted: afterwards a single read each), counts the places of progress older
 * than the counter, and forgets the place keys of operations done.
 */
export const missionRecovery: readonly JobStep[] = [
  { name: 'missions', run: () => finishMissionCreditsOfOlderVersion() },
  { name: 'missionStarts', run: () => countStartsOfOlderVersion() },
  { name: 'missionPlaces', run: () => finishPlacesOfOlderVersion() },
  {
    name: 'placeKeys',
    // only once the older version's places are settled (settling them reads the keys): afterwards that is a single read
    run: async () => (await finishPlacesOfOlderVersion(), forgetDonePlaceKeys()),
    routine: true,
  },
  { name: 'completionsCounted', run: () => countEarlierCompletions(), routine: true },
];

/** A proof picture is sent just before its claim: one no claim carries a day later was abandoned, or replaced by a new proof. */
const PROOF_IMAGE_KEPT_MS = 24 * 3_600_000;

export async function removeUnclaimedProofImages(now: Date): Promise<number> {
  const old = await proofImagesUploadedBefore(new Date(now.getTime() - PROOF_IMAGE_KEPT_MS), 200);
  const inUse = await proofImagesInUse(old);
  return removeProofImages(old.filter((id) => !inUse.has(id)));
}
