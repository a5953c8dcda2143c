import type { z } from 'zod';
import { fitsDecimals, fromMicros, microsToStored, toMicros, type balanceAdjustmentInput } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { objectId } from '../../db/ids';
import { isDuplicateKey } from '../../db/mongoErrors';
import { migrateOnce } from '../../db/migrationProgress';
import { accountUsername } from '../accounts/accounts.service';
import { assertIndependentApprover } from '../accounts/fourEyes.service';
import { isAudited, recordAudit, type Operator } from '../audit/audit.service';
import { aboveThreshold, countTowardDailyLimit } from '../coins/coinBrakes.service';
import { findCoin } from '../coins/giftCoins.service';
import { balanceOf, entryWithKey, linesOfOlderKind } from '../ledger/ledger.service';
import { GiftApprovalModel, type GiftApprovalReason } from './giftApproval.model';
import { playerStanding } from '../users/users.service';
import { auditGiftLine, giveApprovedGift, giveGift } from './gifts.kinds';

/**
 * An operator's gift or correction of a player's balance: one operation of the engine (`gift-adjustment`, gifts.kinds.ts),
 * keyed by the form's own key so a double submit adjusts once, whose step audits it as the operator's (once, whoever finishes
 * it: the call, a retry or the sweep). A debit the balance cannot cover changes nothing.
 */
export async function adjustBalance(userId: string, input: z.infer<typeof balanceAdjustmentInput>, operator: Operator) {
  const accountId = operator.id;
  if (!(await playerStanding(userId))) throw new AppError('NOT_FOUND');
  const coin = await findCoin(input.coin);
  if (!coin) throw badInput({ coin: 'Choose an existing gift coin' });
  if (!fitsDecimals(input.amount, coin.decimals)) throw badInput({ amount: `${coin.symbol} has at most ${coin.decimals} decimals` });
  const amount = input.direction === 'credit' ? toMicros(input.amount) : -toMicros(input.amount);
  const idempotencyKey = `admin:${input.idempotencyKey}`;

  const earlier = await entryWithKey(idempotencyKey);
  if (earlier && (String(earlier.user) !== userId || String(earlier.coin) !== input.coin || earlier.amount !== microsToStored(amount)))
    throw badInput({ idempotencyKey: 'This key was already used for a different adjustment' });

  const gift = { userId, coin: input.coin, amount, note: input.note, idempotencyKey };
  // above the coin's threshold a second operator approves before anything reaches the ledger
  if (!earlier && (await aboveThreshold(input.coin, toMicros(input.amount)))) return requestApproval(gift, operator, 'threshold');
  // a gift that already waits stays waiting (a repeat after the day's window moved is not applied beside it)
  if (!earlier && (await GiftApprovalModel.exists({ idempotencyKey }))) return requestApproval(gift, operator, 'daily-limit');
  // a credit counts toward what this operator created alone today: past the coin's daily limit it waits too
  if (!earlier && amount > 0n && !(await countTowardDailyLimit(accountId, input.coin, amount, idempotencyKey, new Date())))
    return requestApproval(gift, operator, 'daily-limit');

  const { lineIds, applied } = await giveGift({ user: userId, coin: input.coin, amount, note: input.note, key: idempotencyKey }, operator);
  const balance = fromMicros(await balanceOf(userId, input.coin));
  return { entryId: lineIds[0]!, applied, balance, pending: false as const, approvalId: null };
}

interface GiftAsked {
  userId: string;
  coin: string;
  /** Signed micro-units. */
  amount: bigint;
  note: string;
  idempotencyKey: string;
}

/** Records a gift that waits for a second operator (once per key), audited as the request it is; `reason` says which brake. */
async function requestApproval(gift: GiftAsked, operator: Operator, reason: GiftApprovalReason) {
  const fields = {
    reason,
    user: objectId(gift.userId),
    coin: objectId(gift.coin),
    amount: microsToStored(gift.amount),
    note: gift.note,
    idempotencyKey: gift.idempotencyKey,
    requestedBy: objectId(operator.id),
  };
  let asked;
  try {
    asked = await GiftApprovalModel.findOneAndUpdate(
      { idempotencyKey: gift.idempotencyKey },
      { $setOnInsert: fields },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true, setDefaultsOnInsert: true },
    );
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    asked = { value: await GiftApprovalModel.findOne({ idempotencyKey: gift.idempotencyKey }), lastErrorObject: { updatedExisting: true } };
  }
  const request = asked.value!;
  if (String(request.user) !== gift.userId || String(request.coin) !== gift.coin || request.amount !== fields.amount)
    throw badInput({ idempotencyKey: 'This key was already used for a different adjustment' });
  if (asked.lastErrorObject?.updatedExisting === false)
    await recordAudit({
      operator,
      action: 'create',
      resource: 'gifts',
      record: String(request._id),
      before: null,
      after: request.toJSON(),
      note: gift.note,
      key: `gift-asked:${String(request._id)}`,
    });
  return {
    entryId: null,
    applied: false,
    balance: fromMicros(await balanceOf(gift.userId, gift.coin)),
    pending: true as const,
    approvalId: String(request._id),
  };
}

/**
 * A second operator's approval of a gift waiting for one: never the operator who asked nor an account they made or empowered
 * (assertIndependentApprover). The approval is the gift's operation (`gift-approval`, gifts.kinds.ts): its admit takes the
 * request in one conditional step from pending, so two approvals at once give it once; a repeat of an approval a crash
 * interrupted, or the engine's sweep, finishes it. A player banned or owing since, or a correction the balance no longer
 * covers, ends it rejected.
 */
export async function approveGift(approvalId: string, operator: Operator, now: Date) {
  const request = await GiftApprovalModel.findById(approvalId);
  if (!request) throw new AppError('NOT_FOUND');
  await assertIndependentApprover(String(request.requestedBy), operator.id, 'this gift');
  if (request.status === 'rejected') throw new AppError('GIFT_DECIDED', { status: request.status });
  await giveApprovedGift(request, operator, now);
  const current = (await GiftApprovalModel.findById(approvalId))!;
  if (current.status !== 'applied' || String(current.decidedBy) !== operator.id)
    throw new AppError('GIFT_DECIDED', { status: current.status });
  return { ...(current.toJSON() as object), balance: fromMicros(await balanceOf(current.user, current.coin)) };
}

/** Turns down a gift waiting for approval, with the reason; the operator who asked may withdraw their own. */
export async function rejectGift(approvalId: string, operator: Operator, reason: string, now: Date) {
  const rejected = await GiftApprovalModel.findOneAndUpdate(
    { _id: objectId(approvalId), status: 'pending' },
    { $set: { status: 'rejected', rejectReason: reason, decidedBy: objectId(operator.id), decidedAt: now } },
    { returnDocument: 'after' },
  );
  if (rejected) return rejected.toJSON();
  const current = await GiftApprovalModel.findById(approvalId);
  if (!current) throw new AppError('NOT_FOUND');
  throw new AppError('GIFT_DECIDED', { status: current.status });
}

/**
 * Gifts an older version approved and left unposted (it wrote the approval, then the entry, and a crash came between): given
 * once as their approver's, by the operation an approval records now, or ended rejected as it would end them. Once, at the
 * first pass after the upgrade: an approval is the operation's own write since.
 */
export function finishApprovedGiftsOfOlderVersion(): Promise<void> {
  return migrateOnce('gift-approved-unposted', async () => {
    for (const request of await GiftApprovalModel.find({ status: 'approved', entryId: '' })) {
      const approverId = String(request.decidedBy);
      try {
        await giveApprovedGift(
          request,
          { id: approverId, username: (await accountUsername(approverId)) ?? approverId },
          request.decidedAt!,
        );
      } catch (error) {
        // a correction the balance no longer covers, a player banned or owing since: the request ended rejected, saying why
        if (!(error instanceof AppError)) throw error;
      }
    }
    return null;
  });
}

/** When this process started: the gift operations an older version left recorded are finished by the sweep's grace after. */
const startedAt = Date.now();
/** Gift operations an older version left, audited this many at a time. */
const AUDIT_BATCH = 500;

/**
 * Start-up, once: gifts an older version posted and left without their audit (it wrote the entry, then the audit, and a crash
 * came between; its sweep audited those of the last day only). Its gifts are the operations of the plain kind `gift` (this
 * version records `gift-adjustment` and `gift-approval`, whose step audits them): each one's line is audited as its operator's
 * adjustment, or its approver's when a second operator approved it, under the key the steps use (`adjust:<entryId>`), so a
 * crash mid-way and the rerun write each once. The balance after it is not known any more and is left out. An approval that
 * version left approved with its entry posted is marked applied with it, as the approval's step marks it. It waits until
 * this process has run for the sweep's grace, so the gift operations that version left recorded were finished first.
 */
export async function auditGiftsOfOlderVersion(graceMs: number): Promise<void> {
  if (Date.now() - startedAt < graceMs) return;
  await migrateOnce('gift-audits-of-older-version', async (after) => {
    const { lines, last } = await linesOfOlderKind('gift', after, AUDIT_BATCH);
    const requests = await GiftApprovalModel.find({ idempotencyKey: { $in: lines.map((line) => line.idempotencyKey) } }).lean();
    const requestOf = new Map(requests.map((request) => [request.idempotencyKey, request]));
    for (const line of lines) {
      const request = requestOf.get(line.idempotencyKey);
      const approved = request?.status === 'approved' || request?.status === 'applied';
      const operatorId = (approved && request.decidedBy) || line.createdBy;
      if (request?.status === 'approved' && !request.entryId)
        await GiftApprovalModel.updateOne(
          { _id: request._id, status: 'approved', entryId: '' },
          { $set: { status: 'applied', entryId: String(line._id) } },
        );
      if (!operatorId || (await isAudited(`adjust:${String(line._id)}`))) continue;
      const username = (await accountUsername(String(operatorId))) ?? String(operatorId);
      await auditGiftLine({ id: String(operatorId), username }, line);
    }
    return last;
  });
}

/** Gifts and corrections waiting for a second operator (the dashboard's live figures). */
export function countGiftsWaiting(): Promise<number> {
  return GiftApprovalModel.countDocuments({ status: 'pending' });
}
