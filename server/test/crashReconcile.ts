import type { PlayerStatus } from '@gift/shared';
import { AccountModel } from '../src/modules/accounts/account.model';
import { AccountGrantModel } from '../src/modules/accounts/accountGrant.model';
import { AuditEntryModel } from '../src/modules/audit/audit.model';
import { LeagueWeekModel } from '../src/modules/leagues/leagues.models';
import { leagueWeekNamed } from '../src/modules/leagues/leagueWeek';
import { SETTLE_AFTER_MS, standingsInOrder } from '../src/modules/leagues/standings.service';
import { MiningSessionModel } from '../src/modules/mining/miningSession.model';
import { StarPurchaseModel } from '../src/modules/shop/shop.models';
import { ClusterCleanUpModel } from '../src/modules/users/clusterCleanUp.model';
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
    /** Stars Telegram returned to a player (refundStarPayment) whose purchase the product does not show refunded, its boost kept. */
    'Stars refunds not recorded': number;
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
  // a week of the leagues over (and settled) and not closed: the leagues job's to close, its prizes paid
  const weeks = await LeagueWeekModel.find({ state: { $in: ['open', 'closing'] } }, { week: 1, state: 1 }).lean();
  const over = weeks.filter((w) => leagueWeekNamed(w.week, 'UTC').end.getTime() + SETTLE_AFTER_MS < Date.now());
  return [
    ...over.map((w) => `league week ${w.week} over and still ${w.state}`),
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

type DoneOperation = { key: string; kind: string; user?: unknown; refId?: string; data?: Record<string, unknown> };

/**
 * Each done operation of a kind with steps against what its steps write, kind by kind: a sweep that marked one done
 * without running its steps (or a step that wrote nothing) shows here. `referral-reward`'s one step tells the referrer,
 * when they allow messages: not counted.
 */
async function missingSteps(): Promise<string[]> {
  const done = await OperationModel.find(
    { state: 'done', kind: { $in: [...STEPPED_KINDS] } },
    { key: 1, kind: 1, user: 1, refId: 1, data: 1 },
  ).lean<DoneOperation[]>();
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
  missing.push(...(await missingOfLaterKinds(of)));
  missing.push(...(await statusesNotWritten(of('player-status'))));
  return missing;
}

/**
 * A status change done wrote the player's status at its time, or a newer change stood over it: the player's `statusChangedAt`
 * is at or after the change's. A sweep that marked one done without its steps leaves the player as they were (an unanswered
 * call may, so the status and hold counts alone do not see it).
 */
async function statusesNotWritten(changes: DoneOperation[]): Promise<string[]> {
  const players = await UserModel.find(
    { _id: { $in: changes.map((operation) => (operation.data as { user: unknown }).user) } },
    { statusChangedAt: 1 },
  ).lean();
  const changedAt = new Map(players.map((player) => [String(player._id), player.statusChangedAt?.getTime() ?? -1]));
  return changes
    .filter(({ data }) => (changedAt.get(String(data?.user)) ?? -1) < new Date(data?.at as Date).getTime())
    .map(({ key, data }) => `player-status ${key}: done, the player ${String(data?.user)} not given its status`);
}

/**
 * The done operations of an account's money permissions asked and decided, of Stars payments and refunds, of the leagues'
 * prizes and of cluster clean-ups, against the records their steps write.
 */
async function missingOfLaterKinds(of: (kind: string) => DoneOperation[]): Promise<string[]> {
  const grantIds = [...of('account-grant-ask'), ...of('account-grant')].map((operation) => String(operation.data?.grant));
  const purchaseIds = [...of('stars-payment'), ...of('stars-refund')].map((operation) => String(operation.refId));
  const weeks = [...new Set(of('league_prize').map((operation) => String(operation.refId)))];
  const keys = of('cluster-cleanup').map((operation) => String(operation.data?.key));
  const [grants, purchases, closed, cleanUps] = await Promise.all([
    AccountGrantModel.find({ _id: { $in: grantIds } }).lean(),
    StarPurchaseModel.find({ _id: { $in: purchaseIds } }).lean(),
    LeagueWeekModel.find({ week: { $in: weeks } }).lean(),
    ClusterCleanUpModel.find({ key: { $in: keys } }).lean(),
  ]);
  const missing: string[] = [];
  const count = (what: string, expected: number, found: number) => {
    if (found !== expected) missing.push(`${expected - found} ${what} done, nothing of them written`);
  };
  count('money permissions asked or decided', new Set(grantIds).size, grants.length);
  count('Stars payments or refunds', new Set(purchaseIds).size, purchases.length);
  count('league weeks paid', weeks.length, closed.length);
  count('cluster clean-ups', new Set(keys).size, cleanUps.length);
  for (const week of closed) if (week.state !== 'closed') missing.push(`league week ${week.week}: prizes paid, the week ${week.state}`);
  missing.push(...(await accountGrantErrors(grants)), ...(await purchaseErrors(purchases)), ...(await leagueWeekErrors(closed)));
  missing.push(...(await cleanUpErrors(cleanUps)));
  return missing;
}

type GrantRecord = { _id: unknown; account: unknown; permissions: string[]; status: string };

/**
 * Money permissions asked for an account: listed and audited as asked once; while pending the account carries the request and
 * holds none of it; once applied the account holds each permission, given once by this request, the decision audited once; once
 * rejected the account no longer carries it, given nothing by it, the decision audited once.
 */
export async function accountGrantErrors(grants: GrantRecord[]): Promise<string[]> {
  const ids = grants.map((grant) => String(grant._id));
  const [accounts, audited] = await Promise.all([
    AccountModel.find({ _id: { $in: grants.map((grant) => grant.account) } }, { permissions: 1, grants: 1, pendingGrant: 1 }).lean(),
    auditCounts(ids.flatMap((id) => [`account-grant-asked:${id}`, `account-grant:${id}`])),
  ]);
  const accountOf = new Map(accounts.map((account) => [String(account._id), account]));
  const errors: string[] = [];
  for (const grant of grants) {
    const id = String(grant._id);
    const account = accountOf.get(String(grant.account));
    const asked = audited.get(`account-grant-asked:${id}`) ?? 0;
    const decided = audited.get(`account-grant:${id}`) ?? 0;
    const given = account?.grants.filter((entry) => String(entry.grant) === id).length ?? 0;
    const carried = String((account?.pendingGrant as { _id?: unknown } | null)?._id) === id;
    const holds = grant.permissions.every((permission) => account?.permissions.includes(permission));
    const says = `money permissions ${id} ${grant.status}`;
    if (asked !== 1) errors.push(`${says}: audited as asked ${asked} times`);
    if (grant.status === 'pending' && (!carried || given || decided))
      errors.push(`${says}: carried ${carried}, given ${given} times, decided audited ${decided} times`);
    if (grant.status === 'applied' && (carried || given !== 1 || !holds || decided !== 1))
      errors.push(`${says}: still carried ${carried}, given ${given} times, held ${holds}, audited ${decided} times`);
    if (grant.status === 'rejected' && (carried || given || decided !== 1))
      errors.push(`${says}: still carried ${carried}, given ${given} times, audited ${decided} times`);
    if (grant.status === 'approved') errors.push(`${says}: approved and never given`);
  }
  return errors;
}

type PurchaseRecord = { _id: unknown; user: unknown; kind: string; status: string; chargeId?: string | null; boost: string };

/**
 * Stars purchases against their operations and boosts: a paid one has one payment operation under its charge and its boost
 * granted once (an extra session, a streak freeze, a multiplier ready); a refunded one has one refund operation too, its boost
 * taken back (none left), and the refund audited once; a pending one has no payment operation and no boost. And Telegram's
 * side (the stand-in's refunds, when given): every charge Telegram refunded is a refunded purchase.
 */
export async function purchaseErrors(purchases: PurchaseRecord[], refundedByTelegram?: string[]): Promise<string[]> {
  const charges = purchases.map((purchase) => purchase.chargeId).filter((charge): charge is string => !!charge);
  const [operations, sessions, players, audited] = await Promise.all([
    OperationModel.find(
      { refId: { $in: purchases.map((p) => String(p._id)) }, kind: { $in: ['stars-payment', 'stars-refund'] } },
      { key: 1 },
    ).lean(),
    MiningSessionModel.aggregate<{ _id: unknown; n: number }>([
      { $match: { boostPurchase: { $in: purchases.map((purchase) => purchase._id) } } },
      { $group: { _id: '$boostPurchase', n: { $sum: 1 } } },
    ]),
    UserModel.find({ _id: { $in: purchases.map((purchase) => purchase.user) } }, { streakFreezes: 1 }).lean(),
    auditCounts(charges.map((charge) => `stars-refund:${charge}`)),
  ]);
  const keys = operations.map((operation) => operation.key);
  const sessionsOf = new Map(sessions.map((row) => [String(row._id), row.n]));
  const freezesOf = new Map(players.map((player) => [String(player._id), player.streakFreezes ?? 0]));
  const errors: string[] = [];
  for (const purchase of purchases) {
    const id = String(purchase._id);
    const charge = purchase.chargeId ?? '';
    const paid = purchase.status !== 'pending';
    // the boost held: each kind's (a fresh player buys once, so their streak freezes are this purchase's)
    const held = { extraSession: sessionsOf.get(id) ?? 0, streakFreeze: freezesOf.get(String(purchase.user)) ?? 0 }[purchase.kind];
    const boosts = held ?? (purchase.boost === 'ready' ? 1 : 0);
    const payments = paid ? keys.filter((key) => key === `stars:${charge}`).length : 0;
    const refunds = keys.filter((key) => key === `stars-refund:${charge}`).length;
    const expected = { pending: [0, 0, 0], paid: [1, 0, 1], refunded: [1, 1, 0] }[purchase.status] ?? [];
    if (JSON.stringify([payments, refunds, boosts]) !== JSON.stringify(expected))
      errors.push(`purchase ${id} ${purchase.status}: ${payments} payments, ${refunds} refunds, ${boosts} boosts held`);
    if (purchase.status === 'refunded' && audited.get(`stars-refund:${charge}`) !== 1)
      errors.push(`purchase ${id} refunded: audited ${audited.get(`stars-refund:${charge}`) ?? 0} times`);
  }
  if (refundedByTelegram) {
    const refunded = new Set(
      (await StarPurchaseModel.find({ chargeId: { $in: refundedByTelegram }, status: 'refunded' }, { chargeId: 1 }).lean()).map(
        (purchase) => purchase.chargeId,
      ),
    );
    for (const charge of refundedByTelegram)
      if (!refunded.has(charge)) errors.push(`Telegram refunded the charge ${charge}, the purchase is not refunded`);
  }
  return errors;
}

type WeekRecord = { week: string; state: string; prizes: Array<{ league: string; fromRank: number; toRank: number; amount: number }> };

/** A closed week of the leagues: each winner of its table (a standing above 0 in a prized rank) paid its prize once, no one else. */
export async function leagueWeekErrors(weeks: WeekRecord[]): Promise<string[]> {
  const errors: string[] = [];
  for (const week of weeks.filter((w) => w.state === 'closed')) {
    const owed = new Map<string, bigint>();
    for (const prize of week.prizes) {
      const count = prize.toRank - prize.fromRank + 1;
      const winners = await standingsInOrder(week.week, prize.league as never, prize.fromRank - 1, count);
      for (const winner of winners.filter((standing) => standing.score > 0)) owed.set(String(winner.user), BigInt(prize.amount));
    }
    const lines = await LedgerEntryModel.find({ reason: 'league_prize', refId: week.week, state: 'posted' }, { user: 1, amount: 1 }).lean();
    const paid = new Map<string, bigint[]>();
    for (const line of lines) paid.set(String(line.user), [...(paid.get(String(line.user)) ?? []), BigInt(line.amount)]);
    const withheld = new Set(
      (await UserModel.find({ _id: { $in: [...owed.keys()] }, status: { $ne: 'active' } }, { _id: 1 }).lean()).map((u) => String(u._id)),
    );
    for (const [user, amount] of owed) {
      const got = paid.get(user) ?? [];
      // a winner frozen or banned when it was paid is withheld
      if (!(got.length === 1 && got[0] === amount) && !(withheld.has(user) && got.length === 0))
        errors.push(`league week ${week.week}: ${user} won ${amount}, paid [${got.join(', ')}]`);
    }
    for (const user of paid.keys()) if (!owed.has(user)) errors.push(`league week ${week.week}: ${user} paid a prize they did not win`);
  }
  return errors;
}

type CleanUpRecord = { key: string; status: string; ban: Array<{ user?: string | null }>; credits: Array<{ entry?: string | null }> };

/** A cluster's clean-up carried out once: done, audited once, each player banned and audited once, each credit's one claw-back. */
export async function cleanUpErrors(cleanUps: CleanUpRecord[]): Promise<string[]> {
  const errors: string[] = [];
  for (const cleanUp of cleanUps) {
    const users = cleanUp.ban.map((ban) => String(ban.user));
    const entries = cleanUp.credits.map((credit) => String(credit.entry));
    const [audited, banned, claws] = await Promise.all([
      auditCounts([`cleanup:${cleanUp.key}`, ...users.map((user) => `cleanup:${cleanUp.key}:${user}:ban`)]),
      UserModel.countDocuments({ _id: { $in: users }, status: 'banned' }),
      ClawBackModel.find({ entry: { $in: entries } }).lean(),
    ]);
    const says = `clean-up ${cleanUp.key.slice(0, 12)}`;
    if (cleanUp.status !== 'done') errors.push(`${says}: ${cleanUp.status}`);
    if (audited.get(`cleanup:${cleanUp.key}`) !== 1) errors.push(`${says}: audited ${audited.get(`cleanup:${cleanUp.key}`) ?? 0} times`);
    if (banned !== users.length) errors.push(`${says}: ${banned} of ${users.length} players banned`);
    for (const user of users)
      if (audited.get(`cleanup:${cleanUp.key}:${user}:ban`) !== 1) errors.push(`${says}: the ban of ${user} audited other than once`);
    if (claws.length !== entries.length) errors.push(`${says}: ${claws.length} claw-backs for ${entries.length} credits`);
    errors.push(...(await clawBackErrors(claws)));
  }
  return errors;
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
  'account-grant-ask',
  'account-grant',
  'stars-payment',
  'stars-refund',
  'league_prize',
  'cluster-cleanup',
  'player-status',
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
    starsRefunded = [],
  }: {
    acknowledged: Expectation[];
    unanswered: Expectation[];
    timesSent: TimesSent;
    unreached: string[];
    kinds?: string[];
    /** The Stars payments Telegram refunded (the Bot API stand-in's record), by charge id. */
    starsRefunded?: Array<{ telegram_payment_charge_id: string }>;
  },
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
  const [orphans, unrefunded, unrewarded, twice, miscounted, stepsMissing, starsNotRefunded, payouts, disagreeing, kindsDone] =
    await Promise.all([
      orphanDebits(),
      unrefundedRejections(),
      unrewardedReferrals(),
      appliedTwice(),
      miscountedCompletions(),
      missingSteps(),
      purchaseErrors(
        [],
        starsRefunded.map((refund) => refund.telegram_payment_charge_id),
      ),
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
      'Stars refunds not recorded': starsNotRefunded.length,
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
      ...starsNotRefunded,
      ...payouts,
      ...disagreeing,
      ...never,
      ...undone,
    ],
  };
}
