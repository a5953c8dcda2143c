import type { PlayerStatus } from '@gift/shared';
import { AuditEntryModel } from '../src/modules/audit/audit.model';
import { ClawBackModel } from '../src/modules/clawbacks/clawBack.model';
import { GiftApprovalModel } from '../src/modules/gifts/giftApproval.model';
import { BalanceModel, LedgerEntryModel, LedgerHoldModel } from '../src/modules/ledger/ledger.models';
import { MissionModel, UserMissionModel } from '../src/modules/missions/mission.models';
import { NotificationModel } from '../src/modules/notifications/notification.model';
import { OperationModel } from '../src/modules/ledger/operation.model';
import { StakeModel } from '../src/modules/staking/staking.models';
import { UserModel } from '../src/modules/users/user.model';
import { WithdrawalModel } from '../src/modules/withdrawals/withdrawal.model';

/**
 * Every record against the ledger, after a crash test (or any run): what each count names must be zero.
 * Used by `npm run crash-test` and by its short run in jest.
 */
export interface Findings {
  counts: {
    'lost acknowledged writes': number;
    /** Calls the client never heard back about and never sent again: each must be whole, finished or undone by the sweep alone. */
    'half-done unanswered calls': number;
    'balances != sum of posted entries': number;
    'negative balances': number;
    'pending after the sweep': number;
    'orphan debits': number;
    'unrefunded rejections': number;
    'unrewarded referrals': number;
    'keys applied twice': number;
    'miscounted completions': number;
    /** Operations done whose kind's steps left nothing of what they write (a stake, a withdrawal, a player's counts, …). */
    'done operations missing a step': number;
    /** Withdrawals the hot wallet paid whose payout message the chain shows sent other than once. */
    'payouts not sent exactly once': number;
    /** Players whose status and the ledger's hold say different things (a frozen player's money not held, or the reverse). */
    'statuses != their holds': number;
    /** Fault points no operation reached: the crash test did not cover them. */
    'fault points never reached': number;
    /** Money kinds the load was to exercise of which no operation was done: the crash test did not cover them. */
    'kinds never done': number;
  };
  /** One line per finding, to say which record. */
  details: string[];
}

/** A write the client was told had happened, or a call it never heard back about: what must hold of it after the sweep. */
export interface Expectation {
  what: string;
  holds: () => Promise<boolean>;
}

/** The chain's side of the hot wallet's payouts: how many times each withdrawal's payout message was sent. */
type TimesSent = (withdrawalIds: string[]) => Promise<Map<string, number>>;

/** Ledger reasons of which one record has exactly one entry: a second one is a credit or debit applied twice. */
const ONE_PER_RECORD = ['mission', 'mining', 'stake', 'unstake', 'withdraw', 'refund', 'referral'];

/**
 * Work left half-done: each the sweep must have finished (or undone) once it had its turn. Every money movement is an
 * operation of the engine, so what is owed is an operation not done; besides, what moves no money and keeps a marker: a
 * withdrawal approved for the hot wallet and not yet paid, a gift not yet audited.
 */
async function unfinished(): Promise<string[]> {
  const [withdrawals, operations] = await Promise.all([
    // approved for the hot wallet (or on its way) and not yet paid: the sender's to finish
    WithdrawalModel.find({ status: { $in: ['approved', 'sending'] } }, { _id: 1 }).lean(),
    OperationModel.find({ state: { $in: ['recorded', 'posted'] } }, { key: 1, state: 1 }).lean(),
  ]);
  const gifts = await LedgerEntryModel.find({ reason: 'gift', state: 'posted', refType: 'Account' }, { _id: 1 }).lean();
  const audited = new Set(
    (await AuditEntryModel.find({ key: { $in: gifts.map((g) => `adjust:${String(g._id)}`) } }, { key: 1 }).lean()).map((a) => a.key),
  );
  return [
    ...withdrawals.map((w) => `withdrawal ${String(w._id)} approved and not yet paid`),
    ...operations.map((o) => `operation ${o.key} still ${o.state}`),
    ...gifts.filter((g) => !audited.has(`adjust:${String(g._id)}`)).map((g) => `gift ${String(g._id)} without its audit`),
  ];
}

async function balanceMismatches() {
  const [balances, posted] = await Promise.all([
    BalanceModel.find({}, { user: 1, coin: 1, amount: 1 }).lean(),
    LedgerEntryModel.aggregate<{ _id: { user: unknown; coin: unknown }; total: number }>([
      { $match: { state: 'posted' } },
      { $group: { _id: { user: '$user', coin: '$coin' }, total: { $sum: '$amount' } } },
    ]),
  ]);
  const sums = new Map(posted.map((row) => [`${String(row._id.user)}:${String(row._id.coin)}`, BigInt(row.total)]));
  const held = new Map(balances.map((b) => [`${String(b.user)}:${String(b.coin)}`, BigInt(b.amount)]));
  const mismatched: string[] = [];
  for (const key of new Set([...sums.keys(), ...held.keys()])) {
    const balance = held.get(key) ?? 0n;
    const sum = sums.get(key) ?? 0n;
    if (balance !== sum) mismatched.push(`balance ${key} is ${balance}, posted entries sum to ${sum}`);
  }
  return {
    mismatched,
    negative: balances.filter((b) => BigInt(b.amount) < 0n).map((b) => `balance ${String(b.user)}:${String(b.coin)} is negative`),
  };
}

async function orphanDebits(): Promise<string[]> {
  const debits = await LedgerEntryModel.find({ state: 'posted', reason: { $in: ['stake', 'withdraw'] } }, { reason: 1, refId: 1 }).lean();
  const stakeIds = debits.filter((d) => d.reason === 'stake').map((d) => d.refId);
  const withdrawalIds = debits.filter((d) => d.reason === 'withdraw').map((d) => d.refId);
  const [stakes, withdrawals] = await Promise.all([
    StakeModel.find({ _id: { $in: stakeIds } }, { _id: 1 }).lean(),
    WithdrawalModel.find({ _id: { $in: withdrawalIds } }, { _id: 1 }).lean(),
  ]);
  const existing = new Set([...stakes, ...withdrawals].map((record) => String(record._id)));
  return debits.filter((d) => !existing.has(d.refId)).map((d) => `${d.reason} debit for ${d.refId}, which does not exist`);
}

async function unrefundedRejections(): Promise<string[]> {
  const rejected = await WithdrawalModel.find({ status: 'rejected' }, { _id: 1 }).lean();
  const ids = rejected.map((w) => String(w._id));
  const entries = await LedgerEntryModel.find(
    { state: 'posted', refType: 'Withdrawal', refId: { $in: ids } },
    { reason: 1, refId: 1 },
  ).lean();
  const taken = new Set(entries.filter((e) => e.reason === 'withdraw').map((e) => e.refId));
  const refunded = new Set(entries.filter((e) => e.reason === 'refund').map((e) => e.refId));
  return ids.filter((id) => taken.has(id) && !refunded.has(id)).map((id) => `rejected withdrawal ${id} was never refunded`);
}

async function unrewardedReferrals(): Promise<string[]> {
  const friends = await UserModel.find({ referrer: { $ne: null }, referralState: { $ne: 'over-limit' } }, { _id: 1 }).lean();
  const ids = friends.map((f) => String(f._id));
  const rewarded = new Set(
    (await LedgerEntryModel.find({ state: 'posted', reason: 'referral', refId: { $in: ids } }, { refId: 1 }).lean()).map((e) => e.refId),
  );
  return ids.filter((id) => !rewarded.has(id)).map((id) => `the referrer of ${id} was never rewarded`);
}

async function appliedTwice(): Promise<string[]> {
  const [sameKey, sameRecord] = await Promise.all([
    LedgerEntryModel.aggregate<{ _id: string; n: number }>([
      { $group: { _id: '$idempotencyKey', n: { $sum: 1 } } },
      { $match: { n: { $gt: 1 } } },
    ]),
    LedgerEntryModel.aggregate<{ _id: { reason: string; refId: string }; n: number }>([
      { $match: { state: 'posted', reason: { $in: ONE_PER_RECORD } } },
      { $group: { _id: { reason: '$reason', refId: '$refId' }, n: { $sum: 1 } } },
      { $match: { n: { $gt: 1 } } },
    ]),
  ]);
  return [
    ...sameKey.map((row) => `key ${row._id} has ${row.n} entries`),
    ...sameRecord.map((row) => `${row._id.reason} of ${row._id.refId} posted ${row.n} times`),
  ];
}

/** Each mission's completions against its progress done or waiting for review (each holds one place), and never past its cap. */
async function miscountedCompletions(): Promise<string[]> {
  const [missions, seated] = await Promise.all([
    MissionModel.find({}, { completions: 1, cap: 1 }).lean(),
    UserMissionModel.aggregate<{ _id: unknown; n: number }>([
      { $match: { status: { $in: ['done', 'pending'] } } },
      { $group: { _id: '$mission', n: { $sum: 1 } } },
    ]),
  ]);
  const counted = new Map(seated.map((row) => [String(row._id), row.n]));
  return [
    ...missions
      .filter((m) => (m.completions ?? 0) !== (counted.get(String(m._id)) ?? 0))
      .map((m) => `mission ${String(m._id)} counts ${m.completions} completions, its progress ${counted.get(String(m._id)) ?? 0}`),
    ...missions.filter((m) => m.cap && (m.completions ?? 0) > m.cap).map((m) => `mission ${String(m._id)} is past its cap ${m.cap}`),
  ];
}

type DoneOperation = { key: string; kind: string; user?: unknown; data?: Record<string, unknown> };

/**
 * Each done operation of a kind with steps against what its steps write, kind by kind: a sweep that marked one done
 * without running its steps (or a step that wrote nothing) shows here. `referral-reward`'s one step tells the referrer,
 * when they allow messages: not counted.
 */
async function missingSteps(): Promise<string[]> {
  const done = await OperationModel.find({ state: 'done', kind: { $in: [...STEPPED_KINDS] } }, { key: 1, kind: 1, user: 1, data: 1 }).lean<
    DoneOperation[]
  >();
  const of = (kind: string) => done.filter((operation) => operation.kind === kind);
  const ids = (operations: DoneOperation[], field: (data: Record<string, unknown>) => unknown) =>
    operations.map((operation) => field(operation.data ?? {}));
  const stakesOpened = ids(of('stake-open'), (data) => (data.stake as { _id: unknown })._id);
  const stakesClaimed = ids(of('stake-claim'), (data) => data.stakeId);
  const requested = ids(of('withdrawal-request'), (data) => (data.withdrawal as { _id: unknown })._id);
  const decisions = of('withdrawal-decision');
  const credits = of('mission-credit');
  const started = of('mission-start').map((operation) => (operation.data?.progress as { user: unknown }).user);
  const players = [...new Set([...credits.map((operation) => String(operation.user)), ...started.map(String)])];
  const [stakes, reminders, withdrawals, decided, payouts, counters, progress] = await Promise.all([
    StakeModel.find({ _id: { $in: [...stakesOpened, ...stakesClaimed] } }, { claimedAt: 1 }).lean(),
    NotificationModel.find({ key: { $in: stakesOpened.map((id) => `stake-unlocked:${String(id)}`) } }, { key: 1 }).lean(),
    WithdrawalModel.find({ _id: { $in: requested } }, { _id: 1 }).lean(),
    WithdrawalModel.find({ _id: { $in: ids(decisions, (data) => data.withdrawalId) } }, { decision: 1 }).lean(),
    OperationModel.find(
      { key: { $in: decisions.map((operation) => `payout:${String(operation.data?.withdrawalId)}`) } },
      { key: 1 },
    ).lean(),
    UserModel.find({ _id: { $in: players } }, { missionsCount: 1, doneMissionsCount: 1 }).lean(),
    UserMissionModel.aggregate<{ _id: unknown; n: number }>([
      { $match: { user: { $in: [...credits.map((operation) => operation.user), ...started] } } },
      { $group: { _id: '$user', n: { $sum: 1 } } },
    ]),
  ]);
  const stakeById = new Map(stakes.map((stake) => [String(stake._id), stake]));
  const has = (records: Array<{ _id: unknown }>) => new Set(records.map((record) => String(record._id)));
  const reminded = new Set(reminders.map((reminder) => reminder.key));
  const written = has(withdrawals);
  const decisionOf = new Map(decided.map((withdrawal) => [String(withdrawal._id), withdrawal.decision]));
  const paid = new Set(payouts.map((payout) => payout.key));
  const missing: string[] = [];
  for (const id of stakesOpened.map(String)) {
    if (!stakeById.has(id)) missing.push(`stake-open ${id}: no stake written`);
    if (!reminded.has(`stake-unlocked:${id}`)) missing.push(`stake-open ${id}: no unlock reminder queued`);
  }
  for (const id of stakesClaimed.map(String))
    if (!stakeById.get(id)?.claimedAt) missing.push(`stake-claim ${id}: paid back, the stake not marked claimed`);
  for (const id of requested.map(String)) if (!written.has(id)) missing.push(`withdrawal-request ${id}: no withdrawal written`);
  for (const { key, data } of decisions) {
    const id = String(data?.withdrawalId);
    if (decisionOf.get(id) !== key) missing.push(`withdrawal-decision ${key}: the withdrawal does not name it`);
    if (data?.status === 'done' && !paid.has(`payout:${id}`)) missing.push(`withdrawal-decision ${key}: paid, no payout recorded`);
  }
  // the credit's step counts the progress in the player's counters: each player's counts against their records
  const records = new Map(progress.map((row) => [String(row._id), row.n]));
  for (const player of counters) {
    const id = String(player._id);
    const credited = credits.filter((operation) => String(operation.user) === id).length;
    if (player.doneMissionsCount !== credited)
      missing.push(`player ${id}: doneMissionsCount ${player.doneMissionsCount}, ${credited} mission credits done`);
    if (player.missionsCount !== (records.get(id) ?? 0))
      missing.push(`player ${id}: missionsCount ${player.missionsCount}, ${records.get(id) ?? 0} missions begun`);
  }
  missing.push(...(await missingReviews(of('mission-review'), of('mission-reject'))));
  missing.push(...(await missingDecisions(of('change-decision'), of('gift-approval'))));
  missing.push(...(await auditedOnce(of('change-request'), (operation) => operation.key)));
  const claws = await ClawBackModel.find({
    entry: { $in: of('clawback-open').map((operation) => (operation.data?.credit as { entry: string }).entry) },
  }).lean();
  if (claws.length !== of('clawback-open').length)
    missing.push(`${of('clawback-open').length - claws.length} claw-backs opened, none written`);
  missing.push(...(await clawBackErrors(claws)));
  return missing;
}

/** The kinds whose done operations are checked against what their steps (or admit) leave. */
const STEPPED_KINDS = [
  'stake-open',
  'stake-claim',
  'withdrawal-request',
  'withdrawal-decision',
  'mission-credit',
  'mission-start',
  'mission-review',
  'mission-reject',
  'change-decision',
  'gift-approval',
  'clawback-open',
  'change-request',
] as const;

/** A claim sent for review is no longer started as it was; a rejection left it rejected (or started again since). */
async function missingReviews(reviews: DoneOperation[], rejections: DoneOperation[]): Promise<string[]> {
  const progressOf = (operation: DoneOperation) => String((operation.data?.progress as { _id: unknown })._id);
  const records = await UserMissionModel.find(
    { _id: { $in: [...reviews, ...rejections].map(progressOf) } },
    { status: 1, startedAt: 1 },
  ).lean();
  const byId = new Map(records.map((record) => [String(record._id), record]));
  const missing: string[] = [];
  const sameStart = (operation: DoneOperation) =>
    byId.get(progressOf(operation))?.startedAt?.getTime() === new Date(operation.data?.startedAt as Date).getTime();
  for (const review of reviews)
    if (sameStart(review) && byId.get(progressOf(review))?.status === 'started')
      missing.push(`mission-review ${review.key}: still started`);
  for (const rejection of rejections)
    if (sameStart(rejection) && byId.get(progressOf(rejection))?.status !== 'rejected')
      missing.push(`mission-reject ${rejection.key}: the claim is ${byId.get(progressOf(rejection))?.status}`);
  return missing;
}

/** A brake's decision applied (the record names it last) and audited once; an approved gift applied, with its line. */
async function missingDecisions(changes: DoneOperation[], gifts: DoneOperation[]): Promise<string[]> {
  const missions = changes.filter((operation) => operation.data?.target === 'missions');
  const changeIds = missions.map((operation) => String(operation.data?.changeId));
  const approvalIds = gifts.map((operation) => String(operation.data?.approvalId));
  const [audited, records, approvals] = await Promise.all([
    auditCounts(changeIds.map((id) => `mission-reward:${id}`)),
    MissionModel.find({ _id: { $in: missions.map((operation) => operation.data?.record) } }, { lastDecision: 1 }).lean(),
    GiftApprovalModel.find({ _id: { $in: approvalIds } }, { status: 1, entryId: 1 }).lean(),
  ]);
  const decided = new Set(records.map((mission) => `${String(mission._id)}:${mission.lastDecision?.id}:${mission.lastDecision?.status}`));
  const missing: string[] = [];
  for (const { key, data } of missions) {
    if (audited.get(`mission-reward:${String(data?.changeId)}`) !== 1)
      missing.push(`change-decision ${key}: audited ${audited.get(`mission-reward:${String(data?.changeId)}`) ?? 0} times`);
    if (!decided.has(`${String(data?.record)}:${String(data?.changeId)}:${String(data?.status)}`))
      missing.push(`change-decision ${key}: the mission does not name it`);
  }
  const applied = new Set(approvals.filter((a) => a.status === 'applied' && a.entryId).map((a) => String(a._id)));
  for (const { key, data } of gifts)
    if (!applied.has(String(data?.approvalId))) missing.push(`gift-approval ${key}: the request is not applied`);
  return missing;
}

/** How many audit entries each of these keys has. */
async function auditCounts(keys: string[]): Promise<Map<string, number>> {
  const audits = await AuditEntryModel.aggregate<{ _id: string; n: number }>([
    { $match: { key: { $in: keys } } },
    { $group: { _id: '$key', n: { $sum: 1 } } },
  ]);
  return new Map(audits.map((row) => [row._id, row.n]));
}

/** Each of these operations' audit written once, under the key its step writes it with. */
async function auditedOnce(operations: DoneOperation[], keyOf: (operation: DoneOperation) => string): Promise<string[]> {
  const audited = await auditCounts(operations.map(keyOf));
  return operations
    .filter((operation) => audited.get(keyOf(operation)) !== 1)
    .map((operation) => `${operation.kind} ${operation.key}: audited ${audited.get(keyOf(operation)) ?? 0} times`);
}

/**
 * Each claw-back against its lines: `taken` is what its takes took (each once), settled exactly when all is taken, audited once.
 */
export async function clawBackErrors(claws: Array<{ _id: unknown; amount: number; taken?: unknown; status: string }>): Promise<string[]> {
  const ids = claws.map((claw) => String(claw._id));
  const [lines, audited] = await Promise.all([
    LedgerEntryModel.aggregate<{ _id: string; total: number }>([
      { $match: { state: 'posted', reason: 'clawback', refType: 'ClawBack', refId: { $in: ids } } },
      { $group: { _id: '$refId', total: { $sum: '$amount' } } },
    ]),
    auditCounts(ids.map((id) => `clawback:${id}`)),
  ]);
  const took = new Map(lines.map((row) => [row._id, -BigInt(row.total)]));
  const errors: string[] = [];
  for (const claw of claws) {
    const id = String(claw._id);
    const taken = BigInt((claw.taken as number | undefined) ?? 0);
    if (taken !== (took.get(id) ?? 0n)) errors.push(`claw-back ${id}: taken ${taken}, its lines took ${took.get(id) ?? 0n}`);
    if ((claw.status === 'settled') !== taken >= BigInt(claw.amount))
      errors.push(`claw-back ${id}: ${claw.status}, ${taken} of ${claw.amount} taken`);
    if (audited.get(`clawback:${id}`) !== 1) errors.push(`claw-back ${id}: audited ${audited.get(`clawback:${id}`) ?? 0} times`);
  }
  return errors;
}

const HOLD_OF: Record<PlayerStatus, string | undefined> = { active: undefined, frozen: 'ACCOUNT_FROZEN', banned: 'ACCOUNT_BANNED' };

/** Whether the ledger's hold on a player (its code, none when absent) is what their status says. */
export const holdAgrees = (status: PlayerStatus, code: string | null | undefined) => HOLD_OF[status] === (code ?? undefined);

/** Every player frozen or banned, or held: the status and the hold agree. */
async function statusesAgainstHolds(): Promise<string[]> {
  const [holds, standing] = await Promise.all([
    LedgerHoldModel.find({}, { code: 1 }).lean(),
    UserModel.find({ status: { $ne: 'active' } }, { status: 1 }).lean(),
  ]);
  const held = await UserModel.find({ _id: { $in: holds.map((hold) => hold._id) } }, { status: 1 }).lean();
  const codeOf = new Map(holds.map((hold) => [String(hold._id), hold.code as string]));
  const players = new Map([...standing, ...held].map((player) => [String(player._id), player.status]));
  return [...players]
    .filter(([id, status]) => !holdAgrees(status, codeOf.get(id)))
    .map(([id, status]) => `player ${id} is ${status}, the ledger's hold says ${codeOf.get(id) ?? 'none'}`);
}

/** Every withdrawal the hot wallet paid (it carries its payout message) sent exactly once on the chain. */
async function payoutsNotSentOnce(timesSent: TimesSent): Promise<string[]> {
  const paid = await WithdrawalModel.find({ 'payout.bodyHash': { $nin: ['', null] } }, { _id: 1 }).lean();
  const times = await timesSent(paid.map((w) => String(w._id)));
  return [...times].filter(([, n]) => n !== 1).map(([id, n]) => `the payout of withdrawal ${id} was sent ${n} times`);
}

async function failing(expectations: Expectation[], prefix: string): Promise<string[]> {
  const failed: string[] = [];
  for (const expectation of expectations) if (!(await expectation.holds())) failed.push(`${prefix}: ${expectation.what}`);
  return failed;
}

/**
 * Waits (up to `settleMs`) for the sweep to finish what the kills left, then counts. The acknowledged writes are
 * what the clients were told had happened: each must hold. The unanswered calls were never sent again: each may have
 * taken effect or not, but must be whole (finished or undone, by the sweep alone).
 */
export async function findings(
  {
    acknowledged,
    unanswered,
    timesSent,
    unreached,
    kinds = [],
  }: { acknowledged: Expectation[]; unanswered: Expectation[]; timesSent: TimesSent; unreached: string[]; kinds?: string[] },
  { settleMs }: { settleMs: number },
): Promise<Findings> {
  const deadline = Date.now() + settleMs;
  let left = await unfinished();
  while (left.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    left = await unfinished();
  }
  const lost = await failing(acknowledged, 'acknowledged but not there');
  const halfDone = await failing(unanswered, 'never answered, left half done');
  const { mismatched, negative } = await balanceMismatches();
  const [orphans, unrefunded, unrewarded, twice, miscounted, stepsMissing, payouts, disagreeing, kindsDone] = await Promise.all([
    orphanDebits(),
    unrefundedRejections(),
    unrewardedReferrals(),
    appliedTwice(),
    miscountedCompletions(),
    missingSteps(),
    payoutsNotSentOnce(timesSent),
    statusesAgainstHolds(),
    OperationModel.distinct('kind', { state: 'done' }),
  ]);
  const never = unreached.map((point) => `no operation reached the fault point ${point}`);
  const undone = kinds.filter((kind) => !kindsDone.includes(kind)).map((kind) => `no ${kind} operation was done`);
  return {
    counts: {
      'lost acknowledged writes': lost.length,
      'half-done unanswered calls': halfDone.length,
      'balances != sum of posted entries': mismatched.length,
      'negative balances': negative.length,
      'pending after the sweep': left.length,
      'orphan debits': orphans.length,
      'unrefunded rejections': unrefunded.length,
      'unrewarded referrals': unrewarded.length,
      'keys applied twice': twice.length,
      'miscounted completions': miscounted.length,
      'done operations missing a step': stepsMissing.length,
      'payouts not sent exactly once': payouts.length,
      'statuses != their holds': disagreeing.length,
      'fault points never reached': never.length,
      'kinds never done': undone.length,
    },
    details: [
      ...lost,
      ...halfDone,
      ...mismatched,
      ...negative,
      ...left,
      ...orphans,
      ...unrefunded,
      ...unrewarded,
      ...twice,
      ...miscounted,
      ...stepsMissing,
      ...payouts,
      ...disagreeing,
      ...never,
      ...undone,
    ],
  };
}
