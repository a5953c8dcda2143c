import type { z } from 'zod';
import { fitsDecimals, fromMicros, microsToStored, toMicros, type balanceAdjustmentInput } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { objectId } from '../../db/ids';
import { isDuplicateKey } from '../../db/mongoErrors';
import { faultPoint } from '../../lib/faults';
import { accountUsername } from '../accounts/accounts.service';
import { assertIndependentApprover } from '../accounts/fourEyes.service';
import { isAudited, recordAudit, type Operator } from '../audit/audit.service';
import { aboveThreshold, countTowardDailyLimit } from '../coins/coinBrakes.service';
import { findCoin } from '../coins/giftCoins.service';
import { balanceOf, entryWithKey, postEntry, postedEntriesBetween } from '../ledger/ledger.service';
import { owedBy } from '../clawbacks/clawBack.service';
import { GiftApprovalModel, type GiftApprovalDocument, type GiftApprovalReason } from './giftApproval.model';
import { playerStanding } from '../users/users.service';

/**
 * An operator's gift or correction of a player's balance: one ledger entry with reason 'gift', keyed by the
 * form's own key so a double submit adjusts once, and one audit entry naming the operator, keyed by the entry
 * so a repeat, or the recovery sweep after a crash between the two, writes it once. A debit the balance
 * cannot cover changes nothing.
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

  const { entryId, applied } = await postEntry({
    userId,
    coinId: input.coin,
    amount,
    reason: 'gift',
    refType: 'Account',
    refId: accountId,
    idempotencyKey,
    note: input.note,
    createdBy: accountId,
  });
  await faultPoint('gift:after-entry');
  const balance = fromMicros(await balanceOf(userId, input.coin));
  // a repeat of a gift whose audit a crash prevented writes it now; the key keeps it to one
  const signed = `${input.direction === 'credit' ? '+' : '-'}${input.amount}`;
  await auditAdjustment(operator, { entryId, userId, coin: input.coin, symbol: coin.symbol, signed, balance, note: input.note });
  return { entryId, applied, balance, pending: false as const, approvalId: null };
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

/** Ends a gift not yet posted as rejected, with the reason, and answers the refusal (409) the approving operator reads. */
async function refuseToGive(request: GiftApprovalDocument, reason: string, operator: Operator, now: Date): Promise<never> {
  await GiftApprovalModel.updateOne(
    { _id: request._id, status: { $in: ['pending', 'approved'] }, entryId: '' },
    { $set: { status: 'rejected', rejectReason: reason, decidedBy: objectId(operator.id), decidedAt: now } },
  );
  const error = new AppError('GIFT_DECIDED', { status: 'rejected' });
  error.message = `${reason}: the gift is rejected`;
  throw error;
}

/** Posts an approved gift through the ledger (by its key: once, whoever calls), audits it as the approver's adjustment, marks it applied. */
async function applyApproved(request: GiftApprovalDocument, approver: Operator) {
  const userId = String(request.user);
  const coinId = String(request.coin);
  const amount = BigInt(request.amount);
  // a player banned, or found owing, between the approval and the ledger (a crash, the sweep) is not given it either
  if (!(await entryWithKey(request.idempotencyKey))) {
    const refusal = await refusalToGive(request);
    if (refusal) await refuseToGive(request, refusal, approver, new Date());
  }
  let posted;
  try {
    posted = await postEntry({
      userId,
      coinId,
      amount,
      reason: 'gift',
      refType: 'Account',
      refId: String(request.requestedBy),
      idempotencyKey: request.idempotencyKey,
      note: request.note,
      createdBy: request.requestedBy,
    });
  } catch (error) {
    // a correction the balance no longer covers: the request ends, saying why
    if (!(error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE')) throw error;
    await GiftApprovalModel.updateOne(
      { _id: request._id, status: 'approved' },
      { $set: { status: 'rejected', rejectReason: 'The balance no longer covers this correction' } },
    );
    throw error;
  }
  const coin = await findCoin(coinId, { symbol: 1 });
  const balance = fromMicros(await balanceOf(userId, coinId));
  const signed = amount > 0n ? `+${fromMicros(amount)}` : fromMicros(amount);
  await auditAdjustment(approver, {
    entryId: posted.entryId,
    userId,
    coin: coinId,
    symbol: coin?.symbol ?? '',
    signed,
    balance,
    note: request.note,
  });
  await GiftApprovalModel.updateOne({ _id: request._id, status: 'approved' }, { $set: { status: 'applied', entryId: posted.entryId } });
  return { entryId: posted.entryId, balance };
}

/**
 * A second operator's approval of a gift waiting for one: never the operator who asked nor an account they made or empowered
 * (assertIndependentApprover). One conditional step from pending,
 * so two approvals at once post it once; a repeat of an approval a crash interrupted finishes it.
 */
export async function approveGift(approvalId: string, operator: Operator, now: Date) {
  const request = await GiftApprovalModel.findById(approvalId);
  if (!request) throw new AppError('NOT_FOUND');
  await assertIndependentApprover(String(request.requestedBy), operator.id, 'this gift');
  if (request.status === 'pending') {
    const refusal = await refusalToGive(request);
    if (refusal) await refuseToGive(request, refusal, operator, now);
    await GiftApprovalModel.updateOne(
      { _id: request._id, status: 'pending' },
      { $set: { status: 'approved', decidedBy: objectId(operator.id), decidedAt: now } },
    );
  }
  const current = (await GiftApprovalModel.findById(approvalId))!;
  if (current.status !== 'approved' || String(current.decidedBy) !== operator.id)
    throw new AppError('GIFT_DECIDED', { status: current.status });
  await faultPoint('gift:after-approval');
  const applied = await applyApproved(current, operator);
  return { ...((await GiftApprovalModel.findById(approvalId))!.toJSON() as object), balance: applied.balance };
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

/** Posts gifts approved but left unposted by a crash, older than `olderThanMs`, as their approver; returns how many. */
export async function recoverApprovedGifts(olderThanMs = 30_000): Promise<number> {
  const stalled = await GiftApprovalModel.find({ status: 'approved', decidedAt: { $lte: new Date(Date.now() - olderThanMs) } }).limit(100);
  let finished = 0;
  for (const request of stalled) {
    const approverId = String(request.decidedBy);
    const username = (await accountUsername(approverId)) ?? approverId;
    try {
      await applyApproved(request, { id: approverId, username });
      finished++;
    } catch (error) {
      // a correction the balance no longer covers, a player banned or owing since: the request ended rejected, saying why
      if (!(error instanceof AppError && (error.code === 'INSUFFICIENT_BALANCE' || error.code === 'GIFT_DECIDED'))) throw error;
    }
  }
  return finished;
}

interface Adjustment {
  entryId: string;
  userId: string;
  coin: string;
  symbol: string;
  /** '+12.5' or '-3'. */
  signed: string;
  /** The balance after it, as far as the writer knew. */
  balance: string;
  note: string;
}

/** The audit record of one adjustment, by its ledger entry: written once, even when a crash makes recovery write it. */
const auditKey = (entryId: unknown) => `adjust:${String(entryId)}`;

function auditAdjustment(operator: Operator, adjustment: Adjustment) {
  const { entryId, userId, coin, symbol, signed, balance, note } = adjustment;
  return recordAudit({
    operator,
    action: 'adjust',
    resource: 'users',
    record: userId,
    before: null,
    after: { coin, symbol, amount: signed, balance, entryId },
    note,
    key: auditKey(entryId),
  });
}

/** Audits gifts of the last day whose audit a crash prevented, older than `olderThanMs`; returns how many. */
export async function recoverGiftAudits(olderThanMs = 30_000): Promise<number> {
  const now = Date.now();
  const gifts = await postedEntriesBetween('gift', new Date(now - 24 * 3_600_000), new Date(now - olderThanMs));
  let audited = 0;
  for (const gift of gifts) {
    if (!gift.createdBy || (await isAudited(auditKey(gift._id)))) continue;
    const [username, coin] = await Promise.all([accountUsername(String(gift.createdBy)), findCoin(gift.coin, { symbol: 1 })]);
    await auditAdjustment(
      { id: String(gift.createdBy), username: username ?? String(gift.createdBy) },
      {
        entryId: String(gift._id),
        userId: String(gift.user),
        coin: String(gift.coin),
        symbol: coin?.symbol ?? '',
        signed: gift.amount > 0 ? `+${fromMicros(gift.amount)}` : fromMicros(gift.amount),
        balance: fromMicros(await balanceOf(gift.user, gift.coin)),
        note: gift.note,
      },
    );
    audited++;
  }
  return audited;
}

/** Gifts and corrections waiting for a second operator (the dashboard's live figures). */
export function countGiftsWaiting(): Promise<number> {
  return GiftApprovalModel.countDocuments({ status: 'pending' });
}
