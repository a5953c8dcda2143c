import type { z } from 'zod';
import { fitsDecimals, fromMicros, microsToStored, toMicros, type balanceAdjustmentInput } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { recordAudit, type Operator } from '../audit/audit.service';
import { findGiftCoin } from '../coins/giftCoins.service';
import { balanceOf, entryWithKey, postEntry } from '../ledger/ledger.service';
import { UserModel } from './user.model';

/**
 * An operator's gift or correction of a player's balance: one ledger entry with reason 'gift', keyed by the
 * form's own key so a double submit adjusts once, and one audit entry naming the operator. A debit the balance
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
  const balance = fromMicros(await balanceOf(userId, input.coin));
  if (applied) {
    const signed = `${input.direction === 'credit' ? '+' : '-'}${input.amount}`;
    await recordAudit({
      operator,
      action: 'adjust',
      resource: 'users',
      record: userId,
      before: null,
      after: { coin: input.coin, symbol: coin.symbol, amount: signed, balance, entryId },
      note: input.note,
    });
  }
  return { entryId, applied, balance };
}
