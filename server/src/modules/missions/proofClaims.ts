import { objectId, type Id } from '../../db/ids';
import { registerImageClaimCheck } from '../proofs/proofs.service';
import { MissionModel, UserMissionModel } from './mission.models';

/** A player's started progress read for the check: more than anyone has open at once. */
const STARTED_READ = 100;

/**
 * Whether the player has started (tapped Go on) a Manual mission that asks for a screenshot and not yet claimed it: the only
 * time a proof picture has a use, so the only time the proofs' door takes one (finding 13).
 */
async function hasStartedImageClaim(playerId: Id): Promise<boolean> {
  const started = await UserMissionModel.find({ user: objectId(playerId), status: 'started' }, { mission: 1 })
    .limit(STARTED_READ)
    .lean();
  if (!started.length) return false;
  return !!(await MissionModel.exists({
    _id: { $in: started.map((progress) => progress.mission) },
    verifyType: 'manual',
    proof: 'image',
    enabled: true,
  }));
}

registerImageClaimCheck(hasStartedImageClaim);
