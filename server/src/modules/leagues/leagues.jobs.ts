import { jobOfSteps } from '../jobs/jobs.service';
import { closeEndedWeeks } from './leaguePrizes.service';
import { followLeftScores } from './rankCounts.service';
import { countStandings, leagueRules } from './standings.service';

/**
 * The leagues' job: the weeks that ended are settled, promoted and paid (oldest first), then the current week's standings
 * follow the ledger lines written since the last pass. Each step is safe run twice, or on two instances at once.
 */
export const leaguesJob = jobOfSteps({ name: 'leagues', kind: 'housekeeping', intervalMs: 5_000 }, [
  { name: 'leagueWeekEnds', run: ({ now }) => closeEndedWeeks(now) },
  { name: 'leagueStandings', run: async ({ now }) => countStandings(now, await leagueRules()) },
  { name: 'leagueRankCounts', run: ({ now }) => followLeftScores(now) },
]);
