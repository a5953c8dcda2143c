import type { z } from 'zod';
import { fitsDecimals, fromMicros, microsToStored, toMicros, type balanceAdjustmentInput } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { faultPoint } from '../../lib/faults';
import { accountUsername } from '../accounts/accounts.service';
import { isAudited, recordAudit, type Operator } from '../audit/audit.service';
import { findGiftCoin } from '../coins/giftCoins.service';
import { balanceOf, entryWithKey, postEntry, postedEntriesBetween } from '../ledger/ledger.service';
import { UserModel } from './user.model';

/**
 * An operator's gift or correction of a player's balance: one ledger entry with reason 'gift', keyed by the
 * form's own key so a double submit adjusts once, and one audit entry naming the operator, keyed by the entry
 * so a repeat, or the recovery sweep after a crash between the two, writes it once. A debit the balance
 * cannot cover changes nothing.
 */
export async function adjustBalance(userId: string, input: z.infer<typeof balanceAdjustmentInput>, operator: Operator) {
  const accountId = operator.id;
  if (!(await UserModel.exists({ _id: userId }))) throw new AppError('NOT_FOUND');
  const coin = await findGiftCoin(input.coin);
  if (!coin) throw badInput({ coin: 'Choose an existing gift coin' });
  if (!fitsDecimals(input.amount, coin.decimals)) throw badInput({ amount: `${coin.symbol} has at most ${coin.decimals} decimals` });
  const amount = input.direction === 'credit' ? toMicros(input.amount) : -toMicros(input.amount);
  const idempotencyKey = `admin:${input.idempotencyKey}`;

  const earlier = await entryWithKey(idempotencyKey);
  if (earlier && (String(earlier.user) !== userId || String(earlier.coin) !== input.coin || earlier.amount !== microsToStored(amount)))
    throw badInput({ idempotencyKey: 'This key was already used for a different adjustment' });

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
  return { entryId, applied, balance };
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
    const [username, coin] = await Promise.all([accountUsername(String(gift.createdBy)), findGiftCoin(gift.coin, { symbol: 1 })]);
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
