import type { Types } from 'mongoose';
import { LEDGER_REASONS, microsToStored, type HouseAccount, type LedgerReason } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId, type Id } from '../../db/ids';
import { faultPoint } from '../../lib/faults';
// mutation runs' planted bugs (lib/mutations.ts), never in production
import { planted } from '../../lib/mutations';
import { BalanceModel, LedgerEntryModel, LedgerHoldModel } from './ledger.models';
import { OperationModel } from './operation.model';

/**
 * The money engine: every balance change is an operation, recorded once under its idempotency key with postings that add up
 * to zero per coin (medici's double entry: a player's posting and the house accounts' opposite ones), then finished here and
 * only here, by the call that recorded it, a retry with the same key, or the sweep, alike:
 * 1. recorded: the document is written in one insert (atomic on every engine), nothing has moved yet;
 * 2. each player posting is applied to its balance exactly once (the balance holds the key of each line applied to it);
 * 3. posted: each player's ledger line is written, and the operation marked;
 * 4. the kind's follow-up steps run, each once per operation (a registered kind names them), then done. A step that waits for
 *    the world (a payout for the chain) answers 'wait': it is run again by whoever finishes the operation next.
 * A debit the balance does not cover, or a player on hold for their own operation, refuses it: the document is removed and
 * nothing is left, so a later attempt under the same key starts afresh. The fault points of every money operation are the
 * engine's: after recording, after each posting, after each step.
 */

interface PlayerPosting {
  user: Id;
  coin: Id;
  /** Signed micro-units: positive credits the player, negative debits them. */
  amount: bigint;
  /** What the player's ledger line says it was. */
  reason: LedgerReason;
}

export interface HousePosting {
  account: HouseAccount;
  coin: Id;
  amount: bigint;
}

export interface OperationInput {
  kind: string;
  /** Unique per movement: the same key never moves money twice. */
  key: string;
  refType?: string;
  refId?: string;
  /** At most one debit, and it comes first: a refusal can only happen before anything moved. */
  players: PlayerPosting[];
  house: HousePosting[];
  note?: string;
  createdBy?: Id | null;
  /** The player's own doing: refused, with nothing changed, once the player is frozen or banned. */
  guarded?: boolean;
  /** What the kind's steps need beyond the postings (a stake's terms): recorded with the operation, read by its steps. */
  data?: Record<string, unknown>;
}

export interface OperationResult {
  operationId: string;
  /** The ledger line of each player posting, in order. */
  lineIds: string[];
  /** false when the operation had already been finished under this key: nothing moved now. */
  applied: boolean;
  /** true for the call that wrote the operation; false for a later call with the same key (a retry, a second click). */
  recorded: boolean;
  /** A step answered 'wait': not done yet; the next call, the kind's job or the sweep runs it again. */
  waiting?: boolean;
}

type OperationDocument = ReturnType<(typeof OperationModel)['hydrate']>;

/** A kind's follow-up work, run once per operation after its postings, each step idempotent by itself. */
export interface OperationKind {
  kind: string;
  /**
   * The kind's own condition, checked before anything moves, by whoever finishes the operation (so idempotent: true again
   * for the operation it already admitted). A refusal (an AppError) refuses the operation as a debit the balance does not
   * cover does: removed, nothing moved. A withdrawal's decision takes the withdrawal's status here, so one decision stands.
   */
  admit?: (operation: OperationDocument) => Promise<AppError | null>;
  /**
   * Run in order, each recorded once it has run. A step may answer 'wait' (it waits for something outside the database, a
   * payout for the chain): it is not recorded, and the operation stays where it is until a later finish runs it again.
   */
  steps: Array<{ name: string; run: (operation: OperationDocument) => Promise<void | 'wait'> }>;
}

const kinds = new Map<string, OperationKind>();

/** Registered at the composition root (server/src/moneyKinds.ts): the engine runs these steps for every operation of the kind. */
export function registerOperationKind(kind: OperationKind): void {
  kinds.set(kind.kind, kind);
}

/** The kinds registered in this process, by name (the crash test's reconciliation checks its load did each). */
export function registeredKinds(): string[] {
  return [...kinds.keys()];
}

/** Forgets a kind (tests: a process that never registered it). */
export function unregisterForTest(kind: string): void {
  kinds.delete(kind);
}

/** Kinds that are plain ledger reasons (a gift, a streak reward) or a payout: nothing to admit or run, no registration. */
const PLAIN_KINDS = new Set<string>([...LEDGER_REASONS, 'payout']);
const PLAIN_KIND: OperationKind = { kind: 'plain', steps: [] };

/**
 * The kind an operation names, as registered. One this process does not know throws rather than be finished without its
 * admit and steps (a process that did not register the money kinds would otherwise mark such an operation done with
 * nothing of what must follow it done): the sweep's pass then fails, is reported, and the operation waits for a process
 * that knows it.
 */
function kindOf(name: string): OperationKind {
  const kind = kinds.get(name) ?? (PLAIN_KINDS.has(name) ? PLAIN_KIND : undefined);
  if (!kind) throw new Error(`the money kind ${name} is not registered in this process (registerMoneyKinds, server/src/moneyKinds.ts)`);
  return kind;
}

/** The key of a player posting's ledger line and of its application to the balance: the operation's own key for the first. */
const lineKey = (operationKey: string, index: number) => (index === 0 ? operationKey : `${operationKey}#${index}`);

type ApplyOutcome = 'applied' | 'already' | 'insufficient' | 'over-limit';

/**
 * Applies one posting to its balance exactly once. The balance holds the key of every line applied to it and not yet
 * released (see `releasePostedKeys`), and the conditional update refuses a key it holds, so retries, the sweep and
 * concurrent callers are harmless however many other changes come in between. A debit also requires the balance to cover it
 * (no balance goes below zero); a credit requires room below 2^53 - 1 micro-units (the largest the database stores exactly).
 * One command when the balance exists (the usual case). When the update matched nothing on a credit, the balance may not
 * exist yet: it is created by the pair alone already holding the credit and its key (one upsert; a balance that exists,
 * perhaps created a moment ago by a concurrent caller, is left alone and the update is tried once more). An upsert filtered on
 * the keys as well could not do this: once the key is applied it would insert a second balance. Exported for the migration of
 * lines left pending before the engine (ledger/migration.ts), which posts such a line where it is once its key is applied.
 */
export async function applyToBalance(line: {
  user: Types.ObjectId;
  coin: Types.ObjectId;
  amount: number;
  key: string;
}): Promise<ApplyOutcome> {
  const pair = { user: line.user, coin: line.coin };
  const room = line.amount >= 0 ? { $lte: Number.MAX_SAFE_INTEGER - line.amount } : { $gte: -line.amount };
  const apply = () =>
    BalanceModel.updateOne(
      { ...pair, amount: room, ...(planted('key-guard-off') ? {} : { appliedKeys: { $ne: line.key } }) },
      { $inc: { amount: line.amount }, $push: { appliedKeys: line.key } },
    );
  let result = await apply();
  if (result.modifiedCount > 0) return 'applied';
  if (line.amount >= 0 && result.matchedCount === 0) {
    try {
      const created = await BalanceModel.updateOne(
        pair,
        { $setOnInsert: { amount: line.amount, appliedKeys: [line.key] } },
        { upsert: true },
      );
      if (created.upsertedCount > 0) return 'applied';
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    result = await apply();
    if (result.modifiedCount > 0) return 'applied';
  }
  if (await BalanceModel.exists({ ...pair, appliedKeys: line.key })) return 'already';
  return line.amount >= 0 ? 'over-limit' : 'insufficient';
}

function checkBalanced(input: OperationInput): void {
  const sums = new Map<string, bigint>();
  for (const { coin, amount } of [...input.players, ...input.house]) sums.set(String(coin), (sums.get(String(coin)) ?? 0n) + amount);
  for (const [coin, sum] of sums)
    if (sum !== 0n) throw new Error(`operation ${input.key} (${input.kind}) does not balance in coin ${coin}: ${sum}`);
  const debit = input.players.findIndex((p) => p.amount < 0n);
  if (debit > 0 || input.players.filter((p) => p.amount < 0n).length > 1)
    throw new Error(`operation ${input.key} (${input.kind}): at most one debit, and first`);
}

/** The hold (freeze or ban) that refuses this player's own operation, or null. */
async function guardRefusal(operation: OperationDocument): Promise<AppError | null> {
  if (!operation.guarded || !operation.user) return null;
  const hold = await LedgerHoldModel.findById(operation.user, { code: 1, reason: 1 }).lean();
  return hold ? new AppError(hold.code, { reason: hold.reason }) : null;
}

/**
 * A refused operation leaves nothing behind, and says why. Unless a concurrent caller with the same key applied its debit
 * meanwhile (the balance had been topped up): then it stands, recorded again under its key and finished, and this caller is
 * told it was.
 */
async function refuse(
  operation: OperationDocument,
  outcome: 'insufficient' | 'over-limit' | AppError,
  removable: boolean,
): Promise<OperationResult> {
  await faultPoint('ledger:refusing');
  // only the call that recorded it, or the sweep once it is older than any live call, removes it: a retry or a concurrent
  // caller with the same key is told no and leaves it to them, so a caller that applies it never finds it gone afterwards
  if (!removable) return refusal(outcome);
  await OperationModel.deleteOne({ _id: operation._id, state: 'recorded' });
  await faultPoint('ledger:refused');
  const first = operation.postings.find((p) => p.account === 'player');
  if (first && (await BalanceModel.exists({ user: first.user, coin: first.coin, appliedKeys: operation.key }))) {
    const restored = await record(fieldsOf(operation));
    return { ...(await finish(restored, { guardChecked: true })), applied: false };
  }
  return refusal(outcome);
}

function refusal(outcome: 'insufficient' | 'over-limit' | AppError): never {
  if (outcome instanceof AppError) throw outcome;
  throw new AppError(outcome === 'insufficient' ? 'INSUFFICIENT_BALANCE' : 'BALANCE_LIMIT');
}

/** What an operation was recorded with, to record it again (a refusal removed it after a concurrent caller applied it). */
function fieldsOf(operation: OperationDocument) {
  const { key, kind, refType, refId, postings, user, note, createdBy, guarded } = operation.toObject();
  const data = operation.get('data') as Record<string, unknown> | undefined;
  return {
    key,
    kind,
    refType,
    refId,
    postings,
    user,
    note,
    createdBy,
    ...(guarded ? { guarded } : {}),
    ...(data ? { data } : {}),
    state: 'recorded',
  };
}

/** Writes the operation under its key unless it is there; returns the stored one either way. */
async function record(fields: Record<string, unknown> & { key: string }): Promise<OperationDocument & { fresh?: boolean }> {
  try {
    const result = await OperationModel.findOneAndUpdate(
      { key: fields.key },
      { $setOnInsert: fields },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true, setDefaultsOnInsert: true },
    );
    return Object.assign(result.value!, { fresh: !result.lastErrorObject?.updatedExisting });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return (await OperationModel.findOne({ key: fields.key }))!;
  }
}

/**
 * Takes an operation from wherever it stands to done. The same code for the call that recorded it, a retry, and the sweep.
 * `fresh`: this call has just recorded it, so none of its lines can exist yet (others check before applying, since a line's
 * key is released from its balance some minutes after the line is written).
 */
async function finish(
  operation: OperationDocument,
  { fresh = false, guardChecked = false, sweeping = false }: { fresh?: boolean; guardChecked?: boolean; sweeping?: boolean } = {},
): Promise<OperationResult> {
  const result: OperationResult = { operationId: String(operation._id), lineIds: [], applied: false, recorded: fresh };
  if (operation.state === 'recorded') {
    const players = operation.postings.filter((p) => p.account === 'player');
    const keys = lineKeysOf(operation);
    const written = new Map<string, Types.ObjectId>(fresh ? [] : (await postedLines(keys)).map((line) => [line.idempotencyKey, line._id]));
    // a kind's admit check has its own effect (a withdrawal's status taken): once it has passed, nothing may remove the
    // operation any more, so a hold that comes after it keeps it owed (retried by the sweep until the hold is lifted)
    const admits = !!kindOf(operation.kind).admit;
    if (!guardChecked && !written.size) {
      const refused = await kindOf(operation.kind).admit?.(operation);
      if (refused) return refuse(operation, refused, fresh || sweeping);
      const held = await guardRefusal(operation);
      if (held) {
        // kept owed by the hold: a freeze waiting for the player's operations in flight (guardedInFlight) need not wait for it
        if (admits) await OperationModel.updateOne({ _id: operation._id, state: 'recorded' }, { $set: { held: true } });
        return refuse(operation, held, (fresh || sweeping) && !admits);
      }
      // the hold lifted: in flight again
      if (operation.held) await OperationModel.updateOne({ _id: operation._id }, { $unset: { held: 1 } });
    }
    for (const [i, posting] of players.entries()) {
      if (written.has(keys[i]!)) continue;
      const outcome = await applyToBalance({ user: posting.user!, coin: posting.coin, amount: posting.amount, key: keys[i]! });
      if (outcome === 'insufficient' || outcome === 'over-limit') {
        if (i === 0) return refuse(operation, outcome, (fresh || sweeping) && !admits);
        throw new Error(`operation ${operation.key}: a credit after the first posting was refused (${outcome})`);
      }
      if (outcome === 'applied') result.applied = true;
      await faultPoint('ledger:after-apply', operation.kind);
    }
    // an operation with no postings whose admit made its change (a brake's decision taken and applied): the point after it
    if (!players.length && admits) await faultPoint('ledger:after-apply', operation.kind);
    const now = new Date();
    const { kind, refType, refId, note, createdBy } = operation;
    for (const [i, posting] of players.entries()) {
      const existing = written.get(keys[i]!);
      if (existing) {
        result.lineIds.push(String(existing));
        continue;
      }
      // $set, not only on insert: a line a concurrent caller wrote names the operation as it stands (recorded again after a
      // refusal removed it: see `refuse`)
      const line = await LedgerEntryModel.findOneAndUpdate(
        { idempotencyKey: keys[i] },
        {
          $set: { state: 'posted', postedAt: now, operation: operation._id },
          $setOnInsert: {
            user: posting.user,
            coin: posting.coin,
            amount: posting.amount,
            reason: posting.reason,
            refType,
            refId,
            note,
            createdBy,
            keyReleased: false,
            ...(operation.guarded ? { guarded: true } : {}),
          },
        },
        { upsert: true, returnDocument: 'after', projection: { _id: 1 } },
      ).lean();
      result.lineIds.push(String(line!._id));
    }
    const steps = kindOf(kind).steps;
    // the call that recorded an operation with no steps leaves marking it to the sweep, which marks those it finds whole in
    // bulk (see finishInterrupted): its lines are the proof it was posted, and the hot path saves a write
    if (fresh && !steps.length) return result;
    // the call that recorded an operation with steps marks it posted with its first step's record (and done with its
    // last's): two writes fewer on the hot path; its lines prove it posted meanwhile, as for the sweep
    if (fresh) return { ...result, ...(await runSteps(operation, now)) };
    const mark = (id: Types.ObjectId) =>
      OperationModel.findOneAndUpdate(
        { _id: id, state: 'recorded' },
        { $set: steps.length ? { state: 'posted', postedAt: now } : { state: 'done', postedAt: now, doneAt: now } },
        { returnDocument: 'after' },
      );
    let marked = (await mark(operation._id)) ?? (await OperationModel.findById(operation._id));
    if (!marked) {
      // removed by a concurrent caller's refusal just before this one applied it: it stands, recorded again under its key
      const again = await record(fieldsOf(operation));
      marked = (await mark(again._id)) ?? (await OperationModel.findById(again._id))!;
    }
    operation = marked;
  }
  // a mutation run's planted bug (lib/mutations.ts), never in production: the sweep marks it done, its steps left unrun
  if (operation.state === 'posted' && sweeping && planted('sweep-skips-step'))
    await OperationModel.updateOne({ _id: operation._id, state: 'posted' }, { $set: { state: 'done', doneAt: new Date() } });
  else if (operation.state === 'posted') Object.assign(result, await runSteps(operation));
  if (!result.lineIds.length) result.lineIds = await lineIdsOf(operation);
  return result;
}

/**
 * Runs the kind's steps not yet run, each recorded once it has run; the last one's record marks the operation done.
 * `postedAt`: the operation is still recorded (its lines written by the call that recorded it), and the first step's record
 * marks it posted too. Should a concurrent refusal have removed it meanwhile (see `refuse`), it stands, recorded again.
 */
async function runSteps(operation: OperationDocument, postedAt?: Date): Promise<Partial<OperationResult>> {
  const todo = kindOf(operation.kind).steps.filter((step) => !operation.steps.includes(step.name));
  let posting = postedAt;
  for (const [i, step] of todo.entries()) {
    if ((await step.run(operation)) === 'wait') return { operationId: String(operation._id), waiting: true };
    const $set = {
      ...(posting ? { state: 'posted', postedAt: posting } : {}),
      ...(i === todo.length - 1 ? { state: 'done', doneAt: new Date() } : {}),
    };
    const update = { $addToSet: { steps: step.name }, ...(Object.keys($set).length ? { $set } : {}) };
    const recorded = await OperationModel.updateOne({ _id: operation._id, state: { $in: ['recorded', 'posted'] } }, update);
    if (posting && !recorded.matchedCount && !(await OperationModel.exists({ _id: operation._id }))) {
      operation = await record(fieldsOf(operation));
      await OperationModel.updateOne({ _id: operation._id, state: 'recorded' }, update);
    }
    posting = undefined;
    await faultPoint('ledger:after-step', operation.kind, step.name);
  }
  if (!todo.length)
    await OperationModel.updateOne({ _id: operation._id, state: 'posted' }, { $set: { state: 'done', doneAt: new Date() } });
  return { operationId: String(operation._id) };
}

/** The posted lines of these keys: a line is there once posted (any an older version left pending is finished first). */
function postedLines(keys: string[]) {
  return LedgerEntryModel.find({ idempotencyKey: { $in: keys } }, { idempotencyKey: 1 }).lean();
}

/** The ledger lines of an operation finished earlier, in the order of its player postings. */
async function lineIdsOf(operation: OperationDocument): Promise<string[]> {
  const keys = lineKeysOf(operation);
  if (!keys.length) return [];
  const lines = new Map((await postedLines(keys)).map((line) => [line.idempotencyKey, String(line._id)]));
  return keys.map((key) => lines.get(key) ?? '');
}

/**
 * Records the operation (once per key) and finishes it. A second call with the same key changes nothing and says so.
 * Throws INSUFFICIENT_BALANCE (a debit not covered), BALANCE_LIMIT, or the player's hold, and leaves nothing.
 */
export async function runOperation(input: OperationInput): Promise<OperationResult> {
  return (await recordOperation(input))();
}

/**
 * Records the operation (once per key) and returns what finishes it, for a caller that must write something between the two:
 * a referral's reward is recorded before the friend its admit check reads is written. Until it is called, a call with the
 * same key or the sweep may finish it, as any other. The point after recording is reached as the caller comes to finish it
 * (at once, for `runOperation`): killed there, what the caller wrote in between is there and nothing of the operation is
 * done, the widest state a sweep must finish from.
 */
export async function recordOperation(input: OperationInput): Promise<() => Promise<OperationResult>> {
  const operation = await recordInput(input);
  if (operation.state === 'done') {
    const done = { operationId: String(operation._id), lineIds: await lineIdsOf(operation), applied: false, recorded: false };
    return () => Promise.resolve(done);
  }
  return async () => {
    if (operation.fresh) await faultPoint('ledger:after-record', operation.kind);
    return finish(operation, { fresh: operation.fresh });
  };
}

function recordInput(input: OperationInput) {
  kindOf(input.kind);
  if (input.players.some((p) => p.amount === 0n)) throw new AppError('BAD_INPUT');
  checkBalanced(input);
  const player = input.players[0];
  return record({
    key: input.key,
    kind: input.kind,
    refType: input.refType ?? '',
    refId: input.refId ?? '',
    state: 'recorded',
    postings: [
      ...input.players.map((p) => ({
        account: 'player',
        user: objectId(p.user),
        coin: objectId(p.coin),
        amount: microsToStored(p.amount),
        reason: p.reason,
      })),
      ...input.house
        .filter((h) => h.amount !== 0n)
        .map((h) => ({ account: h.account, user: null, coin: objectId(h.coin), amount: microsToStored(h.amount) })),
    ],
    user: player ? objectId(player.user) : null,
    note: input.note ?? '',
    createdBy: input.createdBy ? objectId(input.createdBy) : null,
    ...(input.guarded ? { guarded: true } : {}),
    ...(input.data ? { data: input.data } : {}),
  });
}

/** The keys of an operation's player lines. */
const lineKeysOf = (operation: { key: string; postings: Array<{ account: string }> }) =>
  operation.postings.filter((p) => p.account === 'player').map((_, i) => lineKey(operation.key, i));

/**
 * Finishes operations older than `olderThanMs` that are not done, from any instance, any time. Most were finished by their
 * call and left for the sweep to mark (every line written): those are marked done in bulk. The others a crash left
 * unfinished: each is finished (or refused and removed) by the engine's own `finish`; returns how many of those. `only`: the
 * operations of these kinds alone (a job that must see them finished before it acts: the payouts, a player's status).
 */
export async function finishInterrupted(olderThanMs: number, only?: readonly string[]): Promise<number> {
  let finished = 0;
  // up to 10,000 a pass: a sweep every few seconds keeps up with thousands of operations a second
  for (let batch = 0; batch < 10; batch++) {
    const stale = await OperationModel.find({
      state: { $in: ['recorded', 'posted'] },
      createdAt: { $lte: new Date(Date.now() - olderThanMs) },
      ...(only ? { kind: { $in: only } } : {}),
    })
      .sort({ createdAt: 1 })
      .limit(1000);
    // whole once every line is written; an operation with no postings has no line to prove it, so one with an admit is
    // finished (its admit run) rather than marked
    const quiet = stale.filter(
      (operation) =>
        operation.state === 'recorded' &&
        !kindOf(operation.kind).steps.length &&
        (lineKeysOf(operation).length > 0 || !kindOf(operation.kind).admit),
    );
    const keys = quiet.flatMap(lineKeysOf);
    const written = new Set(keys.length ? (await postedLines(keys)).map((line) => line.idempotencyKey) : []);
    const whole = quiet.filter((operation) => lineKeysOf(operation).every((key) => written.has(key)));
    if (whole.length) {
      const now = new Date();
      await OperationModel.updateMany(
        { _id: { $in: whole.map((operation) => operation._id) }, state: 'recorded' },
        { $set: { state: 'done', postedAt: now, doneAt: now } },
      );
    }
    const settled = new Set(whole);
    for (const operation of stale) {
      if (settled.has(operation)) continue;
      // a mutation run's planted bug (lib/mutations.ts), never in production: refunds left for a retry to finish
      if (planted('sweep-skips-refund') && operation.postings.some((posting) => posting.reason === 'refund')) continue;
      try {
        if (!(await finish(operation, { sweeping: true })).waiting) finished++;
      } catch (error) {
        // refused (the balance no longer covers it, or the player is held now): removed, nothing moved
        if (!(error instanceof AppError)) throw error;
      }
    }
    if (stale.length < 1000) break;
  }
  return finished;
}

/**
 * Finishes the operation under this key if it is there and not done (a retry that knows the key but not the whole operation:
 * a claim repeated after a crash). Nothing otherwise. Throws as the engine's `finish` does (the player's hold).
 */
export async function finishOperation(key: string): Promise<void> {
  const operation = await OperationModel.findOne({ key, state: { $in: ['recorded', 'posted'] } });
  if (operation) await finish(operation);
}

/** Finishes the operation under this key if a crash left it unfinished; one whose write never landed is left to the sweep. */
export async function finishLeftOver(key: string): Promise<void> {
  try {
    await finishOperation(key);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}

/**
 * Records an operation whose admit reads a write the caller makes next, and returns what finishes it once the write was tried
 * (`written`: whether it landed). One that did not land is refused by the admit and removed, and the caller's own error stands.
 */
export async function recordBeforeWrite(input: OperationInput): Promise<(written: boolean) => Promise<void>> {
  const finish = await recordOperation(input);
  return async (written) => {
    try {
      await finish();
    } catch (error) {
      // refused: the write it waited for did not land, so nothing was asked
      if (written || !(error instanceof AppError)) throw error;
    }
  };
}

/** How many of the player's own operations recorded at or before `before` are still being applied (no line written yet). */
export async function guardedInFlight(userId: Id, before: Date): Promise<number> {
  const recorded = await OperationModel.find(
    { user: objectId(userId), state: 'recorded', guarded: true, held: { $ne: true }, createdAt: { $lte: before } },
    { key: 1, postings: 1 },
  ).lean();
  if (!recorded.length) return 0;
  const written = new Set((await postedLines(recorded.flatMap(lineKeysOf))).map((line) => line.idempotencyKey));
  return recorded.filter((operation) => !lineKeysOf(operation).every((key) => written.has(key))).length;
}
