import type { Router } from 'express';
import type { Types } from 'mongoose';
import { balanceAdjustmentInput, userUpdateInput } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { buildFilter, parseJsonParam, parseRange, validate, type ResourceDefinition } from '../../rest/resource';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { MiningSessionModel } from '../mining/miningSession.model';
import { StakeModel } from '../staking/staking.models';
import { adjustBalance, moneyByCoin } from './balanceAdjustment.service';
import { UserModel } from './user.model';

/** The filters a player's ledger page takes. */
const ledgerFilters: ResourceDefinition = { name: 'users', model: LedgerEntryModel, filters: { coin: 'objectId', reason: 'equals' } };

async function requirePlayer(id: string) {
  if (!/^[a-f\d]{24}$/i.test(id) || !(await UserModel.exists({ _id: id }))) throw new AppError('NOT_FOUND');
}

function ledgerRoutes(router: Router) {
  /** The player's posted ledger entries, newest first, paged like any list. */
  router.get('/:id/ledger', async (req, res) => {
    await requirePlayer(req.params.id);
    const query = { ...(await buildFilter(ledgerFilters, parseJsonParam(req, 'filter'))), user: req.params.id, state: 'posted' };
    const { skip, limit } = parseRange(parseJsonParam(req, 'range'));
    const [entries, total] = await Promise.all([
      LedgerEntryModel.find(query).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit),
      LedgerEntryModel.countDocuments(query),
    ]);
    res.set('Content-Range', `ledger-entries ${skip}-${entries.length ? skip + entries.length - 1 : skip}/${total}`);
    res.json(entries.map((entry) => entry.toJSON()));
  });

  /** A gift or correction through the ledger; the same key twice adjusts once. */
  router.post('/:id/adjustments', async (req, res) => {
    const input = validate(balanceAdjustmentInput, req.body);
    const result = await adjustBalance(req.params.id, input, req.account!);
    res.status(result.applied ? 201 : 200).json(result);
  });
}

/**
 * Players: operators change only what is theirs to decide (invite limit, blocked, language); everything else
 * comes from Telegram and the ledger. Players are never created or deleted from the console.
 */
export const usersResource: ResourceDefinition<typeof userUpdateInput> = {
  name: 'users',
  model: UserModel,
  updateSchema: userUpdateInput,
  searchFields: ['name', 'username', 'usernameLower', 'telegramId'],
  filters: { blocked: 'boolean', isDemo: 'boolean', referrer: 'objectId' },
  sortable: ['referrersCount', 'missionsCount', 'doneMissionsCount', 'name', 'username', 'lastSeenAt'],
  canDelete: false,
  deleteRefusal: 'a player keeps their ledger and records; block them instead',
  extraRoutes: ledgerRoutes,
  show: async (doc) => {
    const user = doc as { _id: unknown; toJSON: () => Record<string, unknown> };
    return { ...user.toJSON(), coins: (await moneyByCoin(String(user._id))).map((figures) => ({ id: figures.coin, ...figures })) };
  },
  update: (id, input) => {
    const changes = { inviteLimit: input.inviteLimit, blocked: input.blocked, ...(input.language ? { language: input.language } : {}) };
    return UserModel.findByIdAndUpdate(id, { $set: changes }, { returnDocument: 'after', runValidators: true });
  },
};

type WithOperator = { toJSON: () => Record<string, unknown>; createdBy?: { _id: Types.ObjectId; username?: string } | null };

/** Every posted ledger entry, filtered by player on the player's page; the operator who made it is named. */
export const ledgerEntriesResource: ResourceDefinition = {
  name: 'ledger-entries',
  permission: 'users',
  model: LedgerEntryModel,
  scope: { state: 'posted' },
  searchFields: ['idempotencyKey', 'note', 'refId'],
  filters: { user: 'objectId', coin: 'objectId', reason: 'equals', refType: 'equals', refId: 'equals' },
  sortable: ['amount', 'reason'],
  canDelete: false,
  populate: [{ path: 'createdBy', select: 'username' }],
  present: (doc) => {
    const entry = doc as WithOperator;
    const { createdBy } = entry;
    return { ...entry.toJSON(), createdBy: createdBy ? String(createdBy._id) : null, operator: createdBy?.username ?? '' };
  },
};

/** Players' stakes, read-only: they open with the permission to read players. */
export const stakesResource: ResourceDefinition = {
  name: 'stakes',
  permission: 'users',
  model: StakeModel,
  filters: { user: 'objectId', coin: 'objectId', stakingCoin: 'objectId', duration: 'equals' },
  sortable: ['startedAt', 'unlocksAt', 'claimedAt', 'amount'],
  canDelete: false,
};

/** Players' mining sessions, read-only. */
export const miningSessionsResource: ResourceDefinition = {
  name: 'mining-sessions',
  permission: 'users',
  model: MiningSessionModel,
  filters: { user: 'objectId', coin: 'objectId' },
  sortable: ['startedAt', 'endsAt', 'movedAt'],
  canDelete: false,
};
