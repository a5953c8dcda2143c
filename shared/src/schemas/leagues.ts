import { z } from 'zod';
import { objectId, positiveAmount } from './common';

/** The weekly leagues, lowest first: a week's top share moves one up, its bottom share one down. */
export const LEAGUES = ['bronze', 'silver', 'gold', 'platinum', 'diamond'] as const;
export type League = (typeof LEAGUES)[number];

/** The most ranks one prize table can pay in a league. */
const LEAGUE_PRIZE_MAX_RANK = 1000;

const rank = z.coerce
  .number()
  .int('A whole rank')
  .min(1, 'At least rank 1')
  .max(LEAGUE_PRIZE_MAX_RANK, `At most rank ${LEAGUE_PRIZE_MAX_RANK}`);

/** One prize: each player finishing the week at a rank from `fromRank` to `toRank` of `league` is paid `amount` of `coin`. */
const leaguePrize = z
  .object({ league: z.enum(LEAGUES), fromRank: rank, toRank: rank, coin: objectId, amount: positiveAmount })
  .refine((prize) => prize.toRank >= prize.fromRank, { message: 'The last rank comes after the first', path: ['toRank'] });

/** A week's prize table as an operator saves it: no rank of a league is paid twice. */
export const leaguePrizesInput = z.object({
  prizes: z
    .array(leaguePrize)
    .max(50, 'At most 50 prizes')
    .default([])
    .superRefine((prizes, context) => {
      prizes.forEach((prize, index) => {
        const overlaps = prizes.some(
          (other, j) => j < index && other.league === prize.league && other.fromRank <= prize.toRank && prize.fromRank <= other.toRank,
        );
        if (overlaps)
          context.addIssue({ code: 'custom', message: 'These ranks already have a prize in this league', path: [index, 'fromRank'] });
      });
    }),
});
export type LeaguePrizesInput = z.infer<typeof leaguePrizesInput>;
