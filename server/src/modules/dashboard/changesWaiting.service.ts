import type { AdminResource } from '@gift/shared';
import type { ChangeTarget, WaitingChange } from '../accounts/waitingChanges.service';
import { coinChanges } from '../coins/giftCoins.service';
import { CONFIG_REWARDS } from '../config/configRewards.service';
import { getAppConfig } from '../config/config.service';
import { prizeChanges } from '../leagues/leaguePrizes.service';
import { missionRewardsWaiting } from '../missions/rewardsWaiting.service';
import { starOfferChanges } from '../shop/shopBrakes.service';
import { offerChanges } from '../staking/staking.service';

/** The console resources whose write permission decides a brake change on their records. */
export const BRAKE_RESOURCES: readonly AdminResource[] = [
  'missions',
  'app-config',
  'gift-coins',
  'staking-coins',
  'star-offers',
  'leagues',
];

/** Changes read at most from each kind of record (as gifts waiting are): more waiting at once is not a queue anyone works through. */
const PER_SOURCE = 200;

/**
 * A change that loosens a money brake, waiting for a second operator on its record: `resource` is the console resource whose
 * write permission decides it, `record` the record's id (App Config: which reward), `name` what the operator calls the record
 * (a mission's title, a coin's symbol, a staking offer's coin, a Stars offer's title, a league week, App Config's reward).
 */
export interface ChangeWaiting {
  id: string;
  resource: AdminResource;
  record: string;
  name: string;
  requestedBy: string;
  requestedAt: Date;
}

type Found = Record<string, unknown> & { _id: unknown; waitingChange: WaitingChange };

/** Where a brake change waits in a `waitingChange` field: which records may hold one, and how the operator names one. */
const HELD: Array<{
  target: ChangeTarget;
  fields: string;
  /** A reference the name is read through (a staking offer's coin, for its symbol). */
  populate?: { path: string; select: string };
  name: (found: Found) => string;
}> = [
  { target: coinChanges, fields: 'symbol', name: (found) => String(found.symbol) },
  {
    target: offerChanges,
    fields: 'coin',
    populate: { path: 'coin', select: 'symbol' },
    name: (found) => String((found.coin as { symbol?: string } | null)?.symbol ?? ''),
  },
  { target: starOfferChanges, fields: 'title', name: (found) => String(found.title) },
  // a week that ended with its change waiting refuses an approval, but the change still waits to be turned down: listed too
  { target: prizeChanges, fields: 'week', name: (found) => String(found.week) },
];

async function heldOn({ target, fields, populate, name }: (typeof HELD)[number]): Promise<ChangeWaiting[]> {
  let query = target.model
    .find({ waitingChange: { $ne: null } }, `${fields} waitingChange`)
    .sort({ 'waitingChange.requestedAt': -1 })
    .limit(PER_SOURCE);
  if (populate) query = query.populate(populate.path, populate.select);
  const rows = (await query.lean<Found[]>()).filter((found) => found.waitingChange);
  return rows.map((found) => ({
    id: found.waitingChange.id,
    resource: target.resource as AdminResource,
    record: String(found._id),
    name: name(found),
    requestedBy: String(found.waitingChange.requestedBy),
    requestedAt: found.waitingChange.requestedAt,
  }));
}

/** App Config's rewards waiting, each named by its kind. */
async function configRewardsWaiting(): Promise<ChangeWaiting[]> {
  const { waitingRewards } = await getAppConfig();
  return CONFIG_REWARDS.flatMap((kind) => {
    const waiting = waitingRewards?.[kind];
    if (!waiting) return [];
    return [
      {
        id: waiting.id,
        resource: 'app-config' as const,
        record: kind,
        name: kind,
        requestedBy: String(waiting.requestedBy),
        requestedAt: waiting.requestedAt,
      },
    ];
  });
}

/**
 * Every change that loosens a money brake and waits for a second operator, wherever it waits (a mission's reward, App Config's
 * rewards, a coin's brakes, a staking or Stars offer's terms, the league week's prizes), the newest first.
 */
export async function changesWaiting(): Promise<ChangeWaiting[]> {
  const [missions, config, ...held] = await Promise.all([missionRewardsWaiting(PER_SOURCE), configRewardsWaiting(), ...HELD.map(heldOn)]);
  const missionChanges = missions.map((change) => ({ ...change, resource: 'missions' as const }));
  return [...missionChanges, ...config, ...held.flat()].sort((a, b) => b.requestedAt.getTime() - a.requestedAt.getTime());
}
