import { fromMicros } from '@gift/shared';
import { objectId } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { accountUsername } from '../accounts/accounts.service';
import { recordAudit, type Operator } from '../audit/audit.service';
import { balanceOf, entryWithKey, runOperation, type OperationKind } from '../ledger/ledger.service';
import { ClawBackModel, type ClawBackDocument } from './clawBack.model';

/**
 * A claw-back's two money operations, as kinds of the engine (ledger/engine.ts). Neither keeps a flag of work owed: each is
 * recorded first, and the call, a retry or the engine's sweep finishes it alike.
 * - `clawback-open`, one per credit taken back (keyed `clawback-open:<entryId>`), moves nothing itself: its steps open the
 *   claw-back (one per credit, however many ask at once), audit it under `clawback:<id>`, then take what the balance covers.
 * - `clawback-take`, one per step of what is taken (keyed by what was taken before it, `clawback:<id>:<taken>`): the amount
 *   leaves the player's balance into the `clawbacks` house account, and its step raises the claw-back's `taken` from that value
 *   (settled once all is taken). Two passes collecting at once record one take under the key, and raise it once.
 * What a claw-back still owes is its own state (it blocks withdrawals), collected by the `claw-backs` job as credits arrive.
 * Registered at the composition root (server/src/moneyKinds.ts).
 */

const CLAWBACK_OPEN = 'clawback-open';
const CLAWBACK_TAKE = 'clawback-take';

/** The credit taken back, as the opening records it. */
export interface TakenCredit {
  _id: unknown;
  user: unknown;
  coin: unknown;
  amount: number;
}

interface Opening {
  credit: { entry: string; user: string; coin: string; amount: number };
  reason: string;
  operator: Operator;
  /** What asked for it beside the operator (a cluster's clean-up), in the audit. */
  origin: Record<string, string>;
}

interface Take {
  clawBack: string;
  /** What was taken before this take, and what it takes: `taken` is raised from the one to their sum. */
  takenBefore: number;
  take: number;
  /** The claw-back's whole amount: settled once `taken` reaches it. */
  amount: number;
}

/** The key of the next take: by what was taken before it, so a retry after a crash takes the same step once. */
const takeKey = (clawBack: { _id: unknown }, takenBefore: number) => `clawback:${String(clawBack._id)}:${takenBefore}`;

/** Raises `taken` by one take, once (from the value it was taken at), settling the claw-back when all is taken. */
async function countTake({ clawBack, takenBefore, take, amount }: Take): Promise<void> {
  const taken = takenBefore + take;
  await ClawBackModel.updateOne(
    { _id: objectId(clawBack), taken: takenBefore },
    { $set: { taken, ...(taken >= amount ? { status: 'settled', settledAt: new Date() } : {}) } },
  );
}

/**
 * Takes what the balance covers of what is still owed, take by take (each a `clawback-take` operation keyed by what was taken
 * before it). A take an older version posted under its key and left uncounted is counted from its line. Settled once all is
 * taken.
 */
export async function collect(clawBack: ClawBackDocument): Promise<ClawBackDocument> {
  let current = clawBack;
  for (let step = 0; step < 10 && current.status === 'owed'; step++) {
    const takenBefore = current.taken as number;
    const amount = current.amount;
    const remaining = BigInt(amount) - BigInt(takenBefore);
    if (remaining > 0n) {
      const balance = await balanceOf(current.user, current.coin);
      const take = balance < remaining ? balance : remaining;
      if (take <= 0n) break;
      const key = takeKey(current, takenBefore);
      try {
        await runOperation({
          kind: CLAWBACK_TAKE,
          key,
          refType: 'ClawBack',
          refId: String(current._id),
          players: [{ user: current.user, coin: current.coin, amount: -take, reason: 'clawback' }],
          house: [{ account: 'clawbacks', coin: current.coin, amount: take }],
          note: current.reason,
          createdBy: current.createdBy,
          data: { clawBack: String(current._id), takenBefore, take: Number(take), amount } satisfies Take,
        });
      } catch (error) {
        // the balance moved under this take: the next round sees it as it is now
        if (!(error instanceof AppError && error.code === 'INSUFFICIENT_BALANCE')) throw error;
      }
      const older = await entryWithKey(key);
      if (older?.state === 'posted') await countTake({ clawBack: String(current._id), takenBefore, take: -Number(older.amount), amount });
    } else await countTake({ clawBack: String(current._id), takenBefore, take: 0, amount });
    current = (await ClawBackModel.findById(current._id))!;
  }
  return current;
}

/** The claw-back of one credit, opened once (a conditional upsert on the credit, however many callers at once). */
async function open({ credit, reason, operator }: Opening): Promise<void> {
  await ClawBackModel.updateOne(
    { entry: credit.entry },
    {
      $setOnInsert: {
        user: objectId(credit.user),
        coin: objectId(credit.coin),
        entry: credit.entry,
        amount: credit.amount,
        taken: 0,
        reason,
        createdBy: objectId(operator.id),
      },
    },
    { upsert: true, setDefaultsOnInsert: true },
  );
}

/** The claw-back's one audit entry, keyed by it, as the operator who opened it. */
async function audit({ credit, operator, origin }: Opening): Promise<void> {
  const claw = (await ClawBackModel.findOne({ entry: credit.entry }))!;
  const opener = String(claw.createdBy);
  await recordAudit({
    operator: operator.id === opener ? operator : { id: opener, username: (await accountUsername(opener)) ?? '' },
    action: 'adjust',
    resource: 'users',
    record: credit.user,
    before: null,
    after: { clawBack: String(claw._id), entryId: credit.entry, amount: `-${fromMicros(credit.amount)}`, ...origin },
    note: claw.reason,
    key: `clawback:${String(claw._id)}`,
  });
}

const clawBackOpenKind: OperationKind = {
  kind: CLAWBACK_OPEN,
  steps: [
    { name: 'open', run: (operation) => open(operation.data as Opening) },
    { name: 'audit', run: (operation) => audit(operation.data as Opening) },
    {
      name: 'collect',
      run: async (operation) => {
        const claw = await ClawBackModel.findOne({ entry: (operation.data as Opening).credit.entry });
        if (claw) await collect(claw);
      },
    },
  ],
};

const clawBackTakeKind: OperationKind = {
  kind: CLAWBACK_TAKE,
  steps: [{ name: 'counted', run: (operation) => countTake(operation.data as Take) }],
};

/**
 * Opens the claw-back of one posted credit (once per credit, however many callers ask at once), audits it, and takes what the
 * balance covers: one `clawback-open` operation. Returns the claw-back as it stands.
 */
export async function openClawBack(credit: TakenCredit, reason: string, operator: Operator, origin: Record<string, string> = {}) {
  const entry = String(credit._id);
  await runOperation({
    kind: CLAWBACK_OPEN,
    key: `clawback-open:${entry}`,
    refType: 'LedgerEntry',
    refId: entry,
    players: [],
    house: [],
    note: reason,
    createdBy: operator.id,
    data: {
      credit: { entry, user: String(credit.user), coin: String(credit.coin), amount: credit.amount },
      reason,
      operator,
      origin,
    } satisfies Opening,
  });
  const claw = await ClawBackModel.findOne({ entry });
  if (!claw) throw new AppError('NOT_FOUND');
  return claw;
}

/** This module's money kinds, registered at the composition root (server/src/moneyKinds.ts). */
export const clawBackKinds: readonly OperationKind[] = [clawBackOpenKind, clawBackTakeKind];
