import { accountCreateInput, accountUpdateInput } from '@gift/shared';
import type { Router } from 'express';
import { operatorContext } from '../../http/adminAuth';
import type { ResourceDefinition } from '../../http/resource';
import { AccountModel } from './account.model';
import { createAccount, deleteAccount, updateAccount } from './accounts.service';
import { liveSessions, resetTwoStep, revokeSession, revokeSessions, signInHistory } from './operatorSecurity.service';

/**
 * Another account's sessions and sign-in history (the accounts permission: read to see, write to sign out or reset), and the reset
 * of its two-step sign-in.
 */
function accountSecurityRoutes(router: Router) {
  router.get('/:id/sessions', async (req, res) => {
    res.json(await liveSessions(req.params.id, operatorContext(req).operator.sessionId));
  });
  router.delete('/:id/sessions', async (req, res) => {
    res.json(await revokeSessions(req.params.id, operatorContext(req).operator, {}));
  });
  router.delete('/:id/sessions/:session', async (req, res) => {
    res.json(await revokeSession(req.params.id, String(req.params.session), operatorContext(req).operator));
  });
  router.get('/:id/sign-ins', async (req, res) => {
    res.json(await signInHistory(req.params.id));
  });
  router.delete('/:id/totp', async (req, res) => {
    res.json(await resetTwoStep(req.params.id, operatorContext(req).operator));
  });
}

/** Operators' accounts: the password goes in, only ever as a hash, and never comes out. */
export const accountsResource: ResourceDefinition<typeof accountCreateInput, typeof accountUpdateInput> = {
  name: 'accounts',
  model: AccountModel,
  list: {
    searchFields: ['username'],
    substringSearch: true,
    filters: { enabled: 'boolean' },
    sortable: ['username', 'lastLoginAt', 'enabled'],
  },
  create: { schema: accountCreateInput, run: (input, { operator }) => createAccount(input, operator) },
  update: { schema: accountUpdateInput, run: (id, input, { operator, log }) => updateAccount(id, input, { actor: operator, logger: log }) },
  remove: { run: (id, { operator }) => deleteAccount(id, operator) },
  extraRoutes: accountSecurityRoutes,
};
