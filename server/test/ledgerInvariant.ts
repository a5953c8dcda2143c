import type { Types } from 'mongoose';
import { BalanceModel, LedgerEntryModel } from '../src/modules/ledger/ledger.models';

type Id = string | Types.ObjectId;

/**
 * The money invariants after any flow: every balance of the player equals the sum of its posted ledger
 * entries, none is negative, and no entry is left pending. Returns the balances by coin id.
 */
export async function expectLedgerMatchesBalances(userId: Id): Promise<Map<string, bigint>> {
  const [balances, entries] = await Promise.all([
    BalanceModel.find({ user: userId }).lean(),
    LedgerEntryModel.find({ user: userId }).lean(),
  ]);
  expect(entries.filter((e) => e.state !== 'posted')).toEqual([]);
  const posted = new Map<string, bigint>();
  for (const e of entries) posted.set(String(e.coin), (posted.get(String(e.coin)) ?? 0n) + BigInt(e.amount));
  const held = new Map(balances.map((b) => [String(b.coin), BigInt(b.amount)]));
  for (const amount of held.values()) expect(amount >= 0n).toBe(true);
  for (const coin of new Set([...posted.keys(), ...held.keys()]))
    expect(`${coin}: ${held.get(coin) ?? 0n}`).toBe(`${coin}: ${posted.get(coin) ?? 0n}`);
  return held;
}
