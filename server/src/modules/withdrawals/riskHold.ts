import { riskHolds, type PayoutRiskHold, type RiskLevel } from '@gift/shared';
import type { Id } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { getAppConfig } from '../config/config.service';
import { riskStandings } from '../users/players.service';

type Risk = { score: number; level: RiskLevel };

/** App Config's `risk.holdPayoutsFrom`: from which level a player's payouts wait (review by default). */
async function holdFrom(): Promise<PayoutRiskHold> {
  const config = await getAppConfig();
  return (config.toObject().risk as { holdPayoutsFrom?: PayoutRiskHold } | undefined)?.holdPayoutsFrom ?? 'review';
}

/**
 * Among these players, those whose risk holds their payouts: at App Config's level or above as last assessed (the sweep
 * assesses a player again on each withdrawal request), and not cleared by an operator at this score or above.
 */
export async function riskHeldAmong(playerIds: Id[]): Promise<Map<string, Risk>> {
  const from = await holdFrom();
  if (from === 'off' || !playerIds.length) return new Map();
  const standings = await riskStandings(playerIds);
  return new Map(
    standings.flatMap((player) =>
      player.risk && riskHolds(player.risk, player.riskCleared, from)
        ? [[String(player._id), { score: player.risk.score, level: player.risk.level }]]
        : [],
    ),
  );
}

/** Refuses a payout decision while the player's risk holds it (RISK_HOLD, with the level and the score). */
export async function requireNoRiskHold(playerId: Id): Promise<void> {
  const risk = (await riskHeldAmong([playerId])).get(String(playerId));
  if (risk) throw new AppError('RISK_HOLD', { level: risk.level, score: risk.score });
}

/** What an approved withdrawal whose player's risk rose since says in the console while the hot wallet holds it. */
export const riskHoldNote = (risk: Risk) =>
  `Waits: the player's risk is ${risk.level} (score ${risk.score}). The hot wallet pays it once an operator clears their risk (or reject it)`;
