import type { Router } from 'express';
import { Address } from '@ton/core';
import { userStatusBulkInput, userUpdateInput } from '@gift/shared';
import { owedBy } from '../clawbacks/clawBack.service';
import { recordAudit } from '../audit/audit.service';
import { setPlayerStatus } from './playerStatus.service';
import { operatorContext } from '../../http/adminAuth';
import { validate, type ResourceDefinition } from '../../http/resource';
import { moneyByCoin, presentCoinFigures } from './users.service';
import { UserModel } from './user.model';

function playerRoutes(router: Router) {
  /** One status, with its reason, for many players (the console's bulk freeze and ban): each audited as its own update. */
  router.post('/status', async (req, res) => {
    const { ids, ...change } = validate(userStatusBulkInput, req.body);
    const context = operatorContext(req);
    const changed: string[] = [];
    for (const id of new Set(ids)) {
      const before = await UserModel.findById(id);
      if (!before) continue;
      const after = await setPlayerStatus(id, change, new Date());
      await recordAudit({
        operator: context.operator,
        action: 'update',
        resource: 'users',
        record: id,
        before: before.toJSON(),
        after: after.toJSON(),
      });
      changed.push(id);
    }
    res.json({ changed });
  });
}

/** A TON address typed in any form (EQ…, UQ…, 0:…) becomes the raw form players' wallets are kept in; other text stays. */
function rawAddressOr(text: string): string {
  if (!/^(?:[A-Za-z0-9_-]{48}|-?\d+:[0-9a-fA-F]{64})$/.test(text)) return text;
  try {
    return Address.parse(text).toRawString();
  } catch {
    return text;
  }
}

/**
 * Players: operators change only what is theirs to decide (invite limit, blocked, language); everything else
 * comes from Telegram and the ledger. Players are never created or deleted from the console.
 */
export const usersResource: ResourceDefinition<typeof userUpdateInput> = {
  name: 'users',
  model: UserModel,
  list: {
    // by name or @username, the whole Telegram id or its first digits, the referral code, a wallet in any form
    searchFields: ['nameWords', 'usernameLower', 'telegramId', 'lookupWords'],
    searchText: rawAddressOr,
    filters: {
      status: 'equals',
      'risk.level': 'equals',
      joinNetwork: 'equals',
      walletAddresses: 'equals',
      isDemo: 'boolean',
      referrer: 'objectId',
    },
    sortable: ['telegramId', 'referrersCount', 'missionsCount', 'doneMissionsCount', 'name', 'username', 'lastSeenAt', 'risk.score'],
  },
  record: {
    show: async (doc) => {
      const user = doc as { _id: unknown; toJSON: () => Record<string, unknown> };
      return {
        ...user.toJSON(),
        coins: (await moneyByCoin(String(user._id), { everyEnabledCoin: false })).map(presentCoinFigures),
        // claw-backs not yet covered: they block withdrawals
        owed: await owedBy(String(user._id)),
      };
    },
  },
  update: {
    schema: userUpdateInput,
    run: async (id, input) => {
      const { inviteLimit, language, status, statusReason, fa } = input;
      const changes = Object.fromEntries(Object.entries({ inviteLimit, language }).filter(([, value]) => value !== undefined));
      if (Object.keys(changes).length) await UserModel.updateOne({ _id: id }, { $set: changes }, { runValidators: true });
      // the edit form sends the status it shows: only a new status or reason is set (with the ledger's hold), so saving an invite
      // limit keeps the time a freeze began; a freeze a crash left half-done is finished by the sweep
      const current = await UserModel.findById(id, { status: 1, statusReason: 1, fa: 1 }).lean();
      const reasonOf = (standing: { statusReason?: string; fa?: { statusReason?: string } | null } | null | undefined) =>
        `${standing?.statusReason ?? ''}\n${standing?.fa?.statusReason ?? ''}`;
      const changed = status !== current?.status || (status !== 'active' && reasonOf({ statusReason, fa }) !== reasonOf(current));
      if (status && changed) return setPlayerStatus(id, { status, statusReason, fa }, new Date());
      return UserModel.findById(id);
    },
  },
  remove: { refusal: 'a player keeps their ledger and records; block them instead' },
  extraRoutes: playerRoutes,
};
