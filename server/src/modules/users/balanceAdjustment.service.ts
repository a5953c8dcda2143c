import type { z } from 'zod';
import { fitsDecimals, fromMicros, microsToStored, toMicros, type balanceAdjustmentInput } from '@gift/shared';
import { AppError, badInput } from '../../lib/errors';
import { recordAudit, type Operator } from '../audit/audit.service';
import { GiftCoinModel } from '../coins/giftCoin.model';
import { LedgerEntryModel } from '../ledger/ledger.models';
import { balanceOf, balancesOf, figuresByCoin, postEntry } from '../ledger/ledger.service';
import { UserModel } from './user.model';

/**
 * An operator's gift or correction of a player's balance: one ledger entry with reason 'gift', keyed by the
 * form's own key so a double submit adjusts once, and one audit entry naming the operator. A debit the balance
 * cannot cover changes nothing.
 */
export async function adjustBalance(userId: string, input: z.infer<typeof balanceAdjustmentInput>, operator: Operator) {
  const accountId = operator.id;
  if (!(await UserModel.exists({ _id: userId }))) throw new AppError('NOT_FOUND');
  const coin = await GiftCoinModel.findById(input.coin).lean();
  if (!coin) throw badInput({ coin: 'Choose an existing gift coin' });
  if (!fitsDecimals(input.amount, coin.decimals)) throw badInput({ amount: `${coin.symbol} has at most ${coin.decimals} decimals` });
  const amount = input.direction === 'credit' ? toMicros(input.amount) : -toMicros(input.amount);
  const idempotencyKey = `admin:${input.idempotencyKey}`;

  const earlier = await LedgerEntryModel.findOne({ idempotencyKey }).lean();
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
    await recordAudit({ operator, action: 'adjust', resource: 'users', record: userId, before: null, after: { coin: input.coin, symbol: coin.symbol, amount: signed, balance, entryId }, note: input.note });
  }
  return { entryId, applied, balance };
}

/** A player's balance and money figures for every coin they have touched, as decimal strings. */
export async function moneyByCoin(userId: string) {
  const [balances, figures] = await Promise.all([balancesOf(userId), figuresByCoin(userId)]);
  const coinIds = [...new Set([...balances.keys(), ...figures.map((f) => f.coin)])];
  const coins = new Map((await GiftCoinModel.find({ _id: { $in: coinIds } }, { name: 1, symbol: 1, order: 1 }).lean()).map((c) => [String(c._id), c]));
  return coinIds
    .map((coin) => {
      const figure = figures.find((f) => f.coin === coin);
      return {
        coin,
        name: coins.get(coin)?.name ?? '',
        symbol: coins.get(coin)?.symbol ?? '',
        balance: fromMicros(balances.get(coin) ?? 0n),
        rewards: fromMicros(figure?.rewards ?? 0n),
        earned: fromMicros(figure?.earned ?? 0n),
        withdrawn: fromMicros(figure?.withdrawn ?? 0n),
        gifts: fromMicros(figure?.gifts ?? 0n),
      };
    })
    .sort((a, b) => (coins.get(a.coin)?.order ?? 0) - (coins.get(b.coin)?.order ?? 0) || a.symbol.localeCompare(b.symbol));
}
