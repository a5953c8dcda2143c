import type { Router } from 'express';
import { balanceAdjustmentInput, OBJECT_ID_PATTERN, userUpdateInput } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { buildFilter, parseJsonParam, parseRange, validate, type ResourceDefinition } from '../../rest/resource';
import { playerLedgerFilters } from '../ledger/ledgerEntries.rest';
import { postedEntriesPage } from '../ledger/ledger.service';
import { adjustBalance } from './balanceAdjustment.service';
import { moneyByCoin } from './users.service';
import { UserModel } from './user.model';

async function requirePlayer(id: string) {
  if (!OBJECT_ID_PATTERN.test(id) || !(await UserModel.exists({ _id: id }))) throw new AppError('NOT_FOUND');
}

function ledgerRoutes(router: Router) {
  /** The player's posted ledger entries, newest first, paged like any list. */
  router.get('/:id/ledger', async (req, res) => {
    await requirePlayer(req.params.id);
    const query = { ...(await buildFilter(playerLedgerFilters, parseJsonParam(req, 'filter'))), user: req.params.id, state: 'posted' };
    const { skip, limit } = parseRange(parseJsonParam(req, 'range'));
    const [entries, total] = await postedEntriesPage(query, skip, limit);
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
  searchFields: ['nameWords', 'usernameLower', 'telegramId'],
  filters: { blocked: 'boolean', isDemo: 'boolean', referrer: 'objectId' },
  sortable: ['telegramId', 'referrersCount', 'missionsCount', 'doneMissionsCount', 'name', 'username', 'lastSeenAt'],
  canDelete: false,
  deleteRefusal: 'a player keeps their ledger and records; block them instead',
  extraRoutes: ledgerRoutes,
  show: async (doc) => {
    const user = doc as { _id: unknown; toJSON: () => Record<string, unknown> };
    return {
      ...user.toJSON(),
      coins: (await moneyByCoin(String(user._id), { everyEnabledCoin: false })).map(({ coinId, icon: _icon, ...figures }) => ({
        id: coinId,
        coin: coinId,
        ...figures,
      })),
    };
  },
  update: (id, input) => {
    const changes = { inviteLimit: input.inviteLimit, blocked: input.blocked, ...(input.language ? { language: input.language } : {}) };
    // a block ends the player's web sign-in tokens at once, and they stay ended after an unblock
    const endSessions = input.blocked ? { $inc: { tokenVersion: 1 } } : {};
    return UserModel.findByIdAndUpdate(id, { $set: changes, ...endSessions }, { returnDocument: 'after', runValidators: true });
  },
};
