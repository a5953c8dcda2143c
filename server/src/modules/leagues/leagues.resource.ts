import { leaguePrizesInput } from '@gift/shared';
import type { ResourceDefinition } from '../../http/resource';
import { changeRoutes } from '../accounts/changeDecisions.service';
import { playerIdsMatching } from '../users/players.service';
import { currentWeekId, presentLeagueWeek, prizeChanges, savePrizes } from './leaguePrizes.service';
import { LeagueWeekModel, StandingModel } from './leagues.models';

const PLAYER = [{ path: 'user', select: 'name username' }];

/** A standing as the console lists it: the player's id with their name beside it. */
function presentStanding(doc: unknown) {
  const json = (doc as { toJSON: () => Record<string, unknown> }).toJSON();
  const user = json.user as { id?: string; _id?: unknown; name?: string; username?: string } | null;
  return {
    ...json,
    user: user && typeof user === 'object' ? String(user.id ?? user._id) : user,
    userName: user?.name ?? '',
    username: user?.username ?? '',
  };
}

/** The weeks' standings, filtered by week and league, highest first: read only (they follow from the ledger). */
export const leagueStandingsResource: ResourceDefinition = {
  name: 'league-standings',
  permission: 'leagues',
  model: StandingModel,
  list: {
    searchReferences: { user: playerIdsMatching },
    filters: { week: 'equals', league: 'equals', user: 'objectId' },
    sortable: ['score'],
  },
  record: { populate: PLAYER, present: presentStanding },
  remove: { refusal: 'A standing follows from the ledger' },
};

/**
 * The league weeks and their prize tables: 'current' is the week being played. A table above its coins' gift thresholds waits
 * for a second operator (POST /:id/change/approve or /reject), as a coin's looser brakes do.
 */
export const leagueWeeksResource: ResourceDefinition<typeof leaguePrizesInput> = {
  name: 'league-weeks',
  permission: 'leagues',
  model: LeagueWeekModel,
  list: { sortable: ['week'] },
  record: {
    present: presentLeagueWeek,
    resolveId: async (id) => (id === 'current' ? currentWeekId() : id),
  },
  update: {
    schema: leaguePrizesInput,
    run: (id, input, { operator }) => savePrizes(id, input, operator, new Date()),
  },
  remove: { refusal: 'A league week stays on record' },
  extraRoutes: (router) => {
    // the console approves the week it edits as 'current' (its singleton's id): the change routes read the week's own id
    router.use((req, _res, next) => {
      if (!req.path.startsWith('/current/change/')) return next();
      currentWeekId().then((id) => {
        req.url = req.url.replace('/current/', `/${id}/`);
        next();
      }, next);
    });
    changeRoutes(router, prizeChanges, async (id) => presentLeagueWeek(await LeagueWeekModel.findById(id)));
  },
};
