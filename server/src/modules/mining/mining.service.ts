import type { Types } from 'mongoose';
import { formatMessage, fromMicros } from '@gift/shared';
import { AppError } from '../../lib/errors';
import { isDuplicateKey } from '../../db/mongoErrors';
import { objectId, type Id } from '../../db/ids';
import type { NewRecord } from '../../db/schemaKit';
import { findCoin, findCoins } from '../coins/giftCoins.service';
import { getAppConfig } from '../config/config.service';
import { notify } from '../notifications/notifications.service';
import { migrateOnce } from '../../db/migrationProgress';
import { moveSession, type MovableSession } from './mining.kinds';
import { MiningSessionModel } from './miningSession.model';
import { miningProgress, miningWindow } from './miningRules';

const MOVED_MESSAGE = 'Moved {count} mining rewards to wallet';

/** The key only a running session of this player holds; the conditional write on it allows one at a time. */
const runningSlot = (userId: Id) => `running:${userId}`;

/**
 * What "running" means, for the Earn screen and for Start alike: the session holding the player's slot, not moved,
 * not ended by the server's clock. Its start time plays no part, so a clock stepped back before it (or a moved session
 * that a clock stepped back would put "before its end") cannot make the two disagree.
 */
const runningFilter = (user: Types.ObjectId, now: Date) => ({ slot: runningSlot(user), movedAt: null, endsAt: { $gt: now } });
/** Sessions holding the slot that are no longer running by that notion: they give it back before a Start. */
/**
 * Finished and not moved: ended by the server's clock, or already given its slot back (so it ended once, even
 * if the clock has since stepped back before its end).
 */
const readyFilter = (user: Types.ObjectId, now: Date) => ({ user, movedAt: null, $or: [{ endsAt: { $lte: now } }, { slot: null }] });
const heldButNotRunning = (user: Types.ObjectId, now: Date) => ({
  slot: runningSlot(user),
  $or: [{ endsAt: { $lte: now } }, { movedAt: { $ne: null } }],
});

interface SessionRow {
  _id: Types.ObjectId;
  coin: Types.ObjectId;
  amount: number;
  startedAt: Date;
  endsAt: Date;
  multiplierPercent?: number | null;
}

export interface CoinAmount {
  coin: { id: string; symbol: string };
  amount: string;
}

function presentActive(session: SessionRow, now: Date) {
  // a clock stepped back before the start shows the session as just started, not longer than it lasts
  const at = now < session.startedAt ? session.startedAt : now;
  const progress = miningProgress({ startedAt: session.startedAt, endsAt: session.endsAt, amount: BigInt(session.amount) }, at);
  return {
    id: String(session._id),
    startedAt: session.startedAt,
    endsAt: session.endsAt,
    amount: fromMicros(session.amount),
    minedSoFar: fromMicros(progress.minedSoFar),
    ratePerHour: fromMicros(progress.ratePerHour),
    remainingSeconds: Math.ceil(progress.remainingMs / 1000),
    /** The Stars shop multiplier it runs with (150 = ×1.5), or null. */
    multiplierPercent: session.multiplierPercent ?? null,
  };
}

/** Sums micro-units per coin, naming each coin; sessions keep the coin they were started in. */
async function amountsByCoin(rows: Array<{ coin: Types.ObjectId; amount: bigint }>): Promise<CoinAmount[]> {
  const totals = new Map<string, bigint>();
  for (const row of rows) totals.set(String(row.coin), (totals.get(String(row.coin)) ?? 0n) + row.amount);
  if (!totals.size) return [];
  const coins = await findCoins([...totals.keys()], { symbol: 1 });
  const symbols = new Map(coins.map((c) => [String(c._id), c.symbol]));
  return [...totals].map(([id, amount]) => ({ coin: { id, symbol: symbols.get(id) ?? '' }, amount: fromMicros(amount) }));
}

/** The Earn screen: the running session's progress at server time, finished sessions waiting to move, and the terms. */
export async function miningStatus(userId: Id, now: Date) {
  const user = objectId(userId);
  const [config, active, waiting] = await Promise.all([
    getAppConfig(),
    MiningSessionModel.findOne(runningFilter(user, now)).lean<SessionRow>(),
    MiningSessionModel.find(readyFilter(user, now), { coin: 1, amount: 1 }).lean<SessionRow[]>(),
  ]);
  const [coin, readyAmounts] = await Promise.all([
    config.miningCoin ? findCoin(config.miningCoin, { symbol: 1 }) : null,
    amountsByCoin(waiting.map((s) => ({ coin: s.coin, amount: BigInt(s.amount) }))),
  ]);
  return {
    configured: !!coin && config.earnAmount > 0,
    active: active ? presentActive(active, now) : null,
    readyToMove: waiting.length,
    readyAmounts,
    coin: coin ? { id: String(coin._id), symbol: coin.symbol } : null,
    earnAmount: fromMicros((config.earnAmount as number | undefined) ?? 0),
    earnDurationHours: config.earnDurationHours,
    serverTime: now,
  };
}

/**
 * Start: one running session at a time. The session holds the player's running slot; a single
 * conditional upsert on that slot creates it only when no running session holds it, so simultaneous
 * taps start one. A session that is no longer running (ended or moved) gives the slot back first.
 */
export async function startMining(userId: Id, now: Date) {
  const config = await getAppConfig();
  const amount = BigInt((config.earnAmount as number | undefined) ?? 0);
  const coin = config.miningCoin ? await findCoin(config.miningCoin, { _id: 1, symbol: 1 }) : null;
  if (!coin || amount <= 0n) throw new AppError('NOT_CONFIGURED');
  const user = objectId(userId);
  const slot = runningSlot(user);
  await MiningSessionModel.updateMany(heldButNotRunning(user, now), { $set: { slot: null } });
  const window = miningWindow(now, config.earnDurationHours);
  const boost = await nextMultiplier(user, now);
  const boosted = boost ? multiplied(amount, boost.multiplierPercent) : amount;
  try {
    const result = await MiningSessionModel.findOneAndUpdate(
      { slot },
      {
        $setOnInsert: {
          user,
          coin: coin._id,
          amount: Number(boosted),
          ...window,
          movedAt: null,
          slot,
          ...(boost ? { boostPurchase: boost._id, multiplierPercent: boost.multiplierPercent } : {}),
        },
      },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    if (result.lastErrorObject?.updatedExisting) throw new AppError('MINING_ACTIVE');
    let session = result.value!;
    // a refund took the multiplier back between the read and the start: the session runs at the plain amount
    if (boost && !(await multipliers.markUsed(boost._id, now)))
      session =
        (await MiningSessionModel.findOneAndUpdate(
          { _id: session._id, movedAt: null },
          { $set: { amount: Number(amount), boostPurchase: null, multiplierPercent: null } },
          { returnDocument: 'after' },
        )) ?? session;
    await notify(
      user,
      `mining-ready:${session._id}`,
      'mining-ready',
      { amount: fromMicros(BigInt(session.amount)), symbol: coin.symbol, sessionId: String(session._id) },
      session.endsAt,
    );
    return presentActive(session.toObject(), now);
  } catch (error) {
    // real MongoDB: a simultaneous start won the unique slot index
    if (isDuplicateKey(error)) throw new AppError('MINING_ACTIVE');
    throw error;
  }
}

/** Where a start finds the player's next multiplier and marks it used: the Stars shop registers it (none without the shop). */
interface MultiplierSource {
  next(user: Types.ObjectId): Promise<{ _id: Types.ObjectId; multiplierPercent: number } | null>;
  markUsed(purchaseId: Types.ObjectId, now: Date): Promise<boolean>;
}
let multipliers: MultiplierSource = { next: () => Promise.resolve(null), markUsed: () => Promise.resolve(false) };

/** Set by the shop: mining itself knows nothing of purchases. */
export function registerMultiplierSource(source: MultiplierSource): void {
  multipliers = source;
}

/** A session's amount under a multiplier percent, in micro-units, rounded down (150 on 1.000001 is 1.500001). */
const multiplied = (amount: bigint, percent: number): bigint => (amount * BigInt(percent)) / 100n;

/**
 * The player's next Stars shop multiplier not yet used. One a crash left marked ready after a session took it is marked
 * used here, and the next one is taken: a multiplier serves one session.
 */
async function nextMultiplier(user: Types.ObjectId, now: Date) {
  for (;;) {
    const boost = await multipliers.next(user);
    if (!boost || !(await MiningSessionModel.exists({ boostPurchase: boost._id }))) return boost;
    await multipliers.markUsed(boost._id, now);
  }
}

/**
 * An extra session bought in the Stars shop: a whole session of the App Config's amount, finished at once and waiting to
 * move like any other. One per purchase, however often it is asked (a conditional upsert on the purchase).
 */
export async function grantExtraSession(userId: Id, purchaseId: Id, now: Date): Promise<void> {
  const config = await getAppConfig();
  const amount = BigInt((config.earnAmount as number | undefined) ?? 0);
  if (!config.miningCoin || amount <= 0n) throw new AppError('NOT_CONFIGURED');
  try {
    await MiningSessionModel.updateOne(
      { boostPurchase: objectId(purchaseId) },
      {
        $setOnInsert: {
          user: objectId(userId),
          coin: config.miningCoin,
          amount: Number(amount),
          startedAt: now,
          endsAt: now,
          movedAt: null,
          slot: null,
        },
      },
      { upsert: true },
    );
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
  }
}

/** Whether a session was started with (or is) this shop purchase's boost. */
export async function hasBoostSession(purchaseId: Id): Promise<boolean> {
  return !!(await MiningSessionModel.exists({ boostPurchase: objectId(purchaseId) }));
}

/**
 * A refund of a shop purchase's session: removed while it waits to move ('revoked'), kept once moved to the wallet ('used': the
 * coins stay the player's), 'none' when the purchase has no session.
 */
export async function takeBackBoostSession(purchaseId: Id): Promise<'revoked' | 'used' | 'none'> {
  const boostPurchase = objectId(purchaseId);
  const removed = await MiningSessionModel.deleteOne({ boostPurchase, movedAt: null });
  if (removed.deletedCount) return 'revoked';
  return (await MiningSessionModel.exists({ boostPurchase })) ? 'used' : 'none';
}

/**
 * Move to Wallet: each finished session not moved yet is moved by its own operation of the engine (`mining-move`, keyed by
 * the session: see mining.kinds.ts), which marks it moved and credits it once, so simultaneous moves take each session once.
 * A move a crash interrupted is finished by the engine's sweep. A call reports the sessions whose credit it applied.
 */
export async function moveMiningRewards(userId: Id, now: Date) {
  const user = objectId(userId);
  const finished = await MiningSessionModel.find(readyFilter(user, now), { coin: 1, amount: 1 }).lean<SessionRow[]>();
  const moved = await Promise.all(
    finished.map(async (session) => {
      try {
        const { applied } = await moveSession({ ...session, user }, now);
        return applied ? [{ coin: session.coin, amount: BigInt(session.amount) }] : [];
      } catch (error) {
        // taken back meanwhile (a refund of the shop purchase behind it): nothing to move
        if (error instanceof AppError && error.code === 'NOTHING_TO_MOVE') return [];
        throw error;
      }
    }),
  );
  const mine = moved.flat();
  if (!mine.length) throw new AppError('NOTHING_TO_MOVE');
  return { count: mine.length, amounts: await amountsByCoin(mine), message: formatMessage(MOVED_MESSAGE, { count: mine.length }) };
}

/** When this process started: what an older version's instances recorded is older than that. */
const startedAt = Date.now();

/**
 * Start-up, once: moves an older version marked and left uncredited (`awaitingCredit`, set with `movedAt` before the engine
 * carried moves) are finished by the engine's own operation under the same key, and their flag removed. One whose player is
 * frozen or banned stays owed as an operation, paid once they are active. It waits until this process has run for the
 * sweep's grace: by then the credit operations that version recorded (under the reason's kind, which keeps nothing owed when
 * a hold refuses it) were finished, or refused and removed, by the engine's sweep, so the move recorded here is of this kind.
 */
export async function finishMiningMovesOfOlderVersion(graceMs: number): Promise<void> {
  if (Date.now() - startedAt < graceMs) return;
  await migrateOnce('mining-owed-credits', async () => {
    const owed = await MiningSessionModel.collection
      .find<MovableSession & { movedAt: Date }>({ awaitingCredit: true }, { projection: { user: 1, coin: 1, amount: 1, movedAt: 1 } })
      .toArray();
    for (const session of owed) {
      try {
        await moveSession(session, session.movedAt);
      } catch (error) {
        // held, or refused for its room: the operation stays recorded, owed, for the sweep
        if (!(error instanceof AppError)) throw error;
      }
      await MiningSessionModel.collection.updateOne({ _id: session._id }, { $unset: { awaitingCredit: '' } });
    }
    return null;
  });
}

/** How many mining sessions are running now (not ended, not yet moved to a balance). */
export function countMiningRunning(now: Date): Promise<number> {
  return MiningSessionModel.countDocuments({ endsAt: { $gt: now }, movedAt: null });
}

/** Inserts mining sessions as given (the demo seed); one still `running` takes the player's running slot. */
export function insertMiningSessions(records: Array<NewRecord<typeof MiningSessionModel> & { user: Types.ObjectId; running?: boolean }>) {
  return MiningSessionModel.insertMany(
    records.map(({ running, ...session }) => (running ? { ...session, slot: runningSlot(session.user) } : session)),
  );
}
