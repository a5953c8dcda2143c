import { Types } from 'mongoose';
import { toMicros, type HouseAccount, type LedgerReason } from '@gift/shared';
import { BalanceModel, LedgerEntryModel } from '../src/modules/ledger/ledger.models';
import { OperationModel } from '../src/modules/ledger/operation.model';

type Posting = { user: Types.ObjectId; amount: string } | { account: HouseAccount; amount: string };

/**
 * An operation written straight into the books as the engine leaves one (until the engine posts every movement): the
 * operation with its postings, and, once posted, each player posting's ledger line (the operation's key, then `key#1`…)
 * and its balance moved.
 */
export async function bookOperation(
  key: string,
  kind: LedgerReason | 'payout',
  coin: Types.ObjectId,
  postings: Posting[],
  state: 'recorded' | 'posted' | 'done' = 'done',
  /** When it was posted (now by default); one still recorded has no such date. */
  postedAt = new Date(),
) {
  const stored = postings.map((posting) => ({
    account: 'account' in posting ? posting.account : 'player',
    user: 'user' in posting ? posting.user : null,
    coin,
    amount: Number(posting.amount.startsWith('-') ? -toMicros(posting.amount.slice(1)) : toMicros(posting.amount)),
  }));
  // one still recorded was left by a crash a minute ago (a call under way is younger): the sweep's to finish
  const recordedAt = new Date(Date.now() - 60_000);
  const operation = await OperationModel.create({
    key,
    kind,
    state,
    postings: stored,
    createdAt: state === 'recorded' ? recordedAt : postedAt,
    postedAt: state === 'recorded' ? null : postedAt,
  });
  if (state === 'recorded') return operation;
  const players = postings.flatMap((posting, at) => ('user' in posting ? [{ user: posting.user, amount: stored[at]!.amount }] : []));
  for (const [index, posting] of players.entries()) {
    await LedgerEntryModel.create({
      user: posting.user,
      coin,
      amount: posting.amount,
      reason: kind === 'payout' ? 'withdraw' : kind,
      idempotencyKey: index === 0 ? key : `${key}#${index}`,
      state: 'posted',
      postedAt: new Date(),
    });
    await BalanceModel.updateOne({ user: posting.user, coin }, { $inc: { amount: posting.amount } }, { upsert: true });
  }
  return operation;
}

/**
 * One coin's books through every kind of movement, each balanced: two players earn from every source, a claw-back, a
 * stake opened and paid back with profit, two withdrawals (one paid on chain), and one operation still recorded.
 * Answers the two players and what each account should read.
 */
export async function seedBooks(coin: Types.ObjectId, tag = 'seed', { inFlight = true }: { inFlight?: boolean } = {}) {
  const [ana, ben] = [new Types.ObjectId(), new Types.ObjectId()];
  const credit = (key: string, kind: LedgerReason, user: Types.ObjectId, amount: string, account: HouseAccount) =>
    bookOperation(`${tag}:${key}`, kind, coin, [
      { user, amount },
      { account, amount: amount.startsWith('-') ? amount.slice(1) : `-${amount}` },
    ]);
  await credit('mission', 'mission', ana, '10', 'rewards:mission');
  await credit('referral', 'referral', ben, '2.5', 'rewards:referral');
  await credit('streak', 'streak', ben, '1', 'rewards:streak');
  await credit('mining', 'mining', ana, '0.75', 'rewards:mining');
  await credit('gift', 'gift', ben, '3', 'gifts');
  await credit('clawback', 'clawback', ana, '-1', 'clawbacks');
  await credit('stake', 'stake', ana, '-4', 'stakes:held');
  await bookOperation(`${tag}:unstake`, 'unstake', coin, [
    { user: ana, amount: '4.2' },
    { account: 'stakes:held', amount: '-4' },
    { account: 'staking:profit', amount: '-0.2' },
  ]);
  await credit('withdraw-1', 'withdraw', ben, '-2', 'withdrawals:in-flight');
  await credit('withdraw-2', 'withdraw', ana, '-1.5', 'withdrawals:in-flight');
  await bookOperation(`${tag}:payout-1`, 'payout', coin, [
    { account: 'withdrawals:in-flight', amount: '-2' },
    { account: 'paid:chain', amount: '2' },
  ]);
  // recorded, not yet posted: counted in flight, and in the house's accounts while ben does not have it yet
  if (inFlight)
    await bookOperation(
      `${tag}:in-flight`,
      'mission',
      coin,
      [
        { user: ben, amount: '7' },
        { account: 'rewards:mission', amount: '-7' },
      ],
      'recorded',
    );
  return {
    players: { ana, ben },
    /** ana 10 + 0.75 − 1 − 4 + 4.2 − 1.5 = 8.45; ben 2.5 + 1 + 3 − 2 = 4.5 */
    holds: '12.95',
    house: {
      'rewards:mission': inFlight ? '-17' : '-10',
      'rewards:referral': '-2.5',
      'rewards:streak': '-1',
      'rewards:mining': '-0.75',
      // every house account is listed, a league's prizes too, though none was paid here
      'rewards:league': '0',
      'staking:profit': '-0.2',
      gifts: '-3',
      clawbacks: '1',
      'stakes:held': '0',
      'withdrawals:in-flight': '1.5',
      'paid:chain': '2',
    },
  };
}
