import { withdrawalReviewInput } from '@gift/shared';
import type { ResourceDefinition } from '../../http/resource';
import { playerIdsMatching } from '../users/players.service';
import { WithdrawalModel, type WithdrawalDocument } from './withdrawal.model';
import { decideWithdrawal } from './payouts.service';
import { presentForConsole, besideDecision } from './withdrawals.service';
import { riskHeldAmong } from './riskHold';

const NAMES = [
  { path: 'user', select: 'name username risk.score risk.level createdAt' },
  { path: 'coin', select: 'symbol' },
  { path: 'processedBy', select: 'username' },
];
const withNames = (doc: WithdrawalDocument) => doc.populate(NAMES);

/**
 * Withdrawals in the console: pending ones at /admin/withdraw, finished ones ({"status":["done","rejected"]})
 * at /admin/withdraw/done. Players create them and nobody deletes them; editing one is the operator's decision.
 */
export const withdrawsResource: ResourceDefinition<typeof withdrawalReviewInput> = {
  name: 'withdraws',
  model: WithdrawalModel,
  list: {
    searchFields: ['address', 'txHash'],
    searchReferences: { user: playerIdsMatching },
    filters: { status: 'equals', user: 'objectId', coin: 'objectId' },
    sortable: ['amount', 'status', 'processedAt'],
  },
  record: {
    // the player's name and the coin's symbol come with each row: no lookup per row, and a withdraws-only account sees them
    populate: NAMES,
    present: presentForConsole,
    // one withdrawal's page: beside the decision, the player's balance, their other withdrawals and whether their risk holds it
    show: async (doc) => {
      const named = await withNames(doc as WithdrawalDocument);
      const presented = presentForConsole(named);
      const ids = { _id: named._id, user: presented.user!, coin: presented.coin! };
      const [history, riskHeld] = await Promise.all([besideDecision(ids), riskHeldAmong([ids.user])]);
      return { ...presented, ...history, riskHeld: riskHeld.size > 0 };
    },
  },
  update: {
    schema: withdrawalReviewInput,
    run: async (id, review, { operator }) =>
      withNames(await decideWithdrawal({ withdrawalId: id, review, accountId: operator.id, now: new Date() })),
    auditAs: 'review',
  },
  remove: { refusal: 'a withdrawal is part of the ledger; reject a pending one instead' },
};
