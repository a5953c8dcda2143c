/**
 * The missions module's door for other modules and the routers, each job in its own file:
 * - `playerMissions.ts`: the player's view of missions and their progress;
 * - `claims.ts`: Go and Claim, by each verify type (`telegramMembership.ts` reads Telegram's answers);
 * - `reviews.ts`: an operator's decision on a Manual mission;
 * - `missions.kinds.ts`: the missions' kinds of the money engine: a Go, a claim's credit, a review and its rejection
 *   (`missionCredit.ts`: what an older version left owed);
 * - `missionPlaces.ts`: the count of completions and the cap, each change inside one of those operations, under its key;
 * - `streaks.ts`: the streak of daily missions and its milestones;
 * - `missionRecords.ts`: the console's queries and the delete guards (registered with coins and content).
 */
export { playerMissions, missionsOfCategory } from './playerMissions';
// registers the check the proofs module asks before an upload (the two modules do not import each other)
import './proofClaims';
export { streakFor } from './streaks';
export { missionRewardDecisions, missionRewardsDecided } from './missionRewards';
export { countEarlierCompletions, finishPlacesOfOlderVersion, forgetDonePlaceKeys } from './missionPlaces';
export { startMission, claimMission } from './claims';
export { reviewUserMission } from './reviews';
export { countStartsOfOlderVersion, finishMissionCreditsOfOlderVersion } from './missionCredit';
export type { MissionRecord } from './missionRecords';
export {
  deleteMission,
  missionIdsMatching,
  countDoneBetween,
  countReviewsWaiting,
  finishedAmong,
  insertMissions,
  insertProgress,
  claimTimesOf,
  proofImagesInUse,
} from './missionRecords';
