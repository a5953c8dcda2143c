import type { Router } from 'express';
import { balanceAdjustmentInput, userUpdateInput } from '@gift/shared';
import { operatorContext } from '../../rest/adminAuth';
import { validate, type ResourceDefinition } from '../../rest/resource';
import { adjustBalance } from './balanceAdjustment.service';
import { moneyByCoin, presentCoinFigures } from './users.service';
import { UserModel } from './user.model';

function adjustmentRoutes(router: Router) {
  /** A gift or correction through the ledger; the same key twice adjusts once. */
  router.post('/:id/adjustments', async (req, res) => {
    const input = validate(balanceAdjustmentInput, req.body);
    const result = await adjustBalance(req.params.id, input, operatorContext(req).operator);
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
  list: {
    searchFields: ['nameWords', 'usernameLower', 'telegramId'],
    filters: { blocked: 'boolean', isDemo: 'boolean', referrer: 'objectId' },
    sortable: ['telegramId', 'referrersCount', 'missionsCount', 'doneMissionsCount', 'name', 'username', 'lastSeenAt'],
  },
  record: {
    show: async (doc) => {
      const user = doc as { _id: unknown; toJSON: () => Record<string, unknown> };
      return {
        ...user.toJSON(),
        coins: (await moneyByCoin(String(user._id), { everyEnabledCoin: false })).map(presentCoinFigures),
      };
    },
  },
  update: {
    schema: userUpdateInput,
    run: (id, input) => {
      const changes = { inviteLimit: input.inviteLimit, blocked: input.blocked, ...(input.language ? { language: input.language } : {}) };
      // a block ends the player's web sign-in tokens at once, and they stay ended after an unblock
      const endSessions = input.blocked ? { $inc: { tokenVersion: 1 } } : {};
      return UserModel.findByIdAndUpdate(id, { $set: changes, ...endSessions }, { returnDocument: 'after', runValidators: true });
    },
  },
  remove: { refusal: 'a player keeps their ledger and records; block them instead' },
  extraRoutes: adjustmentRoutes,
};
