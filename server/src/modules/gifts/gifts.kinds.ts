import { fromMicros, type ErrorCode } from '@gift/shared';
import { objectId, type Id } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { recordAudit, type Operator } from '../audit/audit.service';
import { owedBy } from '../clawbacks/clawBack.service';
import { findCoin } from '../coins/giftCoins.service';
import { balanceOf, entryWithKey, runOperation, type OperationKind } from '../ledger/ledger.service';
import { playerStanding } from '../users/users.service';
import { GiftApprovalModel, type GiftApprovalDocument } from './giftApproval.model';

/**
 * An operator's gift or correction of a player's balance, as kinds of the money engine (ledger/engine.ts), each keyed by the
 * form's own key (`admin:<key>`, the key its ledger line carries), from the `gifts` house account:
 * - `gift-adjustment`: one below its coin's brakes, given at once; its step audits it as the operator's adjustment;
 * - `gift-approval`: one a second operator approves. Its admit takes the approval (pending → approved by this operator, one
 *   conditional write, so of two operators approving at once one decides), and refuses it, ending the request rejected with
 *   the reason, when the player was banned or owes a claw-back since it was asked for, or when the balance no longer covers a
 *   correction. Its steps audit it as the approver's adjustment and mark the request applied.
 * The audit is keyed `adjust:<entryId>`. Nothing else says a gift is owed: the operation is recorded before anything moves,
 * and the call, a retry or the engine's sweep finishes it alike. Registered at the composition root (server/src/moneyKinds.ts).
 */

const GIFT_ADJUSTMENT = 'gift-adjustment';
const GIFT_APPROVAL = 'gift-approval';

interface GiftData {
  /** Whom the audit names: the operator who gave it, or the one who approved it. */
  operator: Operator;
}
interface ApprovalData extends GiftData {
  approvalId: string;
  at: Date;
}

type Operation = Parameters<OperationKind['steps'][number]['run']>[0];

/** The player's one posting of a gift operation. */
function postingOf(operation: Operation) {
  const posting = operation.postings.find((p) => p.account === 'player')!;
  return { user: posting.user!, coin: posting.coin, amount: BigInt(posting.amount) };
}

/** A gift's ledger line, as its audit names it. */
interface GiftLine {
  _id: unknown;
  user: Id;
  coin: Id;
  /** Signed micro-units. */
  amount: bigint | number;
  note?: string | null;
}

/**
 * A gift's audit as `operator`'s adjustment, keyed by its ledger line (`adjust:<entryId>`): written once, whoever writes it.
 * `balance`: the player's balance after it, when the writer knows it.
 */
export async function auditGiftLine(operator: Operator, line: GiftLine, balance?: bigint): Promise<void> {
  const amount = BigInt(line.amount);
  const entryId = String(line._id);
  const found = await findCoin(line.coin, { symbol: 1 });
  await recordAudit({
    operator,
    action: 'adjust',
    resource: 'users',
    record: String(line.user),
    before: null,
    after: {
      coin: String(line.coin),
      symbol: found?.symbol ?? '',
      amount: amount > 0n ? `+${fromMicros(amount)}` : fromMicros(amount),
      ...(balance === undefined ? {} : { balance: fromMicros(balance) }),
      entryId,
    },
    note: line.note ?? '',
    key: `adjust:${entryId}`,
  });
}

/** The gift's audit as the operator's adjustment, keyed by its ledger line: once, whoever runs the step. */
async function auditGift(operation: Operation): Promise<void> {
  const { operator } = operation.data as GiftData;
  const { user, coin, amount } = postingOf(operation);
  const [line, balance] = await Promise.all([entryWithKey(operation.key), balanceOf(user, coin)]);
  // the balance after it, as far as the step knows
  await auditGiftLine(operator, { _id: line!._id, user, coin, amount, note: operation.note }, balance);
}

/**
 * Why a gift that waited may no longer be given: a credit to a player banned since, or one who owes a claw-back (the gift
 * would pay their debt or their ban). A correction that takes coins away is always applied. Null when it may be.
 */
async function refusalToGive(request: GiftApprovalDocument): Promise<string | null> {
  if (BigInt(request.amount) <= 0n) return null;
  const player = await playerStanding(request.user);
  if (!player) return 'The player no longer exists';
  if (player.status === 'banned' || player.blocked) return 'The player was banned after this gift was asked for';
  const [debt] = await owedBy(String(request.user));
  if (debt) return `The player owes a claw-back (${debt.owed} ${debt.symbol}): a gift is not given over a debt`;
  return null;
}

/** Ends a gift not yet given as rejected, with the reason, and answers the refusal the operator reads (409 unless `code` says). */
async function rejected(request: GiftApprovalDocument, reason: string, { operator, at }: ApprovalData, code: ErrorCode = 'GIFT_DECIDED') {
  await GiftApprovalModel.updateOne(
    { _id: request._id, status: { $in: ['pending', 'approved'] }, entryId: '' },
    { $set: { status: 'rejected', rejectReason: reason, decidedBy: objectId(operator.id), decidedAt: at } },
  );
  const error = new AppError(code, { status: 'rejected' });
  error.message = `${reason}: the gift is rejected`;
  return error;
}

/**
 * The approval's admit: takes the request for this approver (pending → approved), or finds it approved by them (a retry, the
 * sweep); refuses it when another decision stands, or when it may no longer be given (then it ends rejected, saying why).
 */
async function admitApproval(operation: Operation): Promise<AppError | null> {
  const data = operation.data as ApprovalData;
  let request = await GiftApprovalModel.findById(data.approvalId);
  if (!request) return new AppError('NOT_FOUND');
  if (request.status === 'pending' || request.status === 'approved') {
    const refusal = await refusalToGive(request);
    if (refusal) return rejected(request, refusal, data);
  }
  if (request.status === 'pending') {
    await GiftApprovalModel.updateOne(
      { _id: request._id, status: 'pending' },
      { $set: { status: 'approved', decidedBy: objectId(data.operator.id), decidedAt: data.at } },
    );
    request = (await GiftApprovalModel.findById(data.approvalId))!;
  }
  if (request.status !== 'approved' || String(request.decidedBy) !== data.operator.id)
    return new AppError('GIFT_DECIDED', { status: request.status });
  const { user, coin, amount } = postingOf(operation);
  if (amount < 0n && (await balanceOf(user, coin)) < -amount)
    return rejected(request, 'The balance no longer covers this correction', data, 'INSUFFICIENT_BALANCE');
  return null;
}

const giftAdjustmentKind: OperationKind = { kind: GIFT_ADJUSTMENT, steps: [{ name: 'audit', run: auditGift }] };

const giftApprovalKind: OperationKind = {
  kind: GIFT_APPROVAL,
  admit: admitApproval,
  steps: [
    { name: 'audit', run: auditGift },
    {
      // the request applied, with its line: the ledger is what happened (one the balance seemed not to cover, rejected while a
      // concurrent pass applied it, is applied too)
      name: 'applied',
      run: async (operation) => {
        const line = await entryWithKey(operation.key);
        await GiftApprovalModel.updateOne(
          { _id: objectId((operation.data as ApprovalData).approvalId), status: { $in: ['approved', 'rejected'] }, entryId: '' },
          { $set: { status: 'applied', entryId: String(line!._id), rejectReason: '' } },
        );
      },
    },
  ],
};

interface Gift {
  user: string;
  coin: string;
  /** Signed micro-units. */
  amount: bigint;
  note: string;
  /** `admin:<the form's key>`. */
  key: string;
  /** The operator who asked for it (the line's author). */
  requestedBy: string;
}

function giftOperation(kind: string, gift: Gift, data: GiftData | ApprovalData) {
  return runOperation({
    kind,
    key: gift.key,
    refType: 'Account',
    refId: gift.requestedBy,
    players: [{ user: gift.user, coin: gift.coin, amount: gift.amount, reason: 'gift' }],
    house: [{ account: 'gifts', coin: gift.coin, amount: -gift.amount }],
    note: gift.note,
    createdBy: gift.requestedBy,
    data: { ...data },
  });
}

/** Gives a gift (or takes a correction) at once, audited as the operator's; once per key. Throws INSUFFICIENT_BALANCE. */
export function giveGift(gift: Omit<Gift, 'requestedBy'>, operator: Operator) {
  return giftOperation(GIFT_ADJUSTMENT, { ...gift, requestedBy: operator.id }, { operator });
}

/**
 * Approves a waiting gift as `approver` and gives it, audited as theirs; once per request, however many approve at once (the
 * others find it decided). Throws GIFT_DECIDED, INSUFFICIENT_BALANCE (the request then ends rejected) or NOT_FOUND.
 */
export function giveApprovedGift(request: GiftApprovalDocument, approver: Operator, at: Date) {
  const gift = {
    user: String(request.user),
    coin: String(request.coin),
    amount: BigInt(request.amount),
    note: request.note,
    key: request.idempotencyKey,
    requestedBy: String(request.requestedBy),
  };
  return giftOperation(GIFT_APPROVAL, gift, { operator: approver, approvalId: String(request._id), at });
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const giftKinds: readonly OperationKind[] = [giftAdjustmentKind, giftApprovalKind];
