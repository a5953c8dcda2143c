import { fromMicros, HOUSE_ACCOUNTS, type HouseAccount } from '@gift/shared';
import { booksDayId, BooksDayModel } from './booksDay.model';
import { BalanceModel } from './ledger.models';
import { OperationModel } from './operation.model';

/** What the hot wallet holds, as the treasury reads it from the chain (handed in by the composition root: rest/registry.ts). */
export interface HotWalletRead {
  /** Whether a hot wallet is configured at all (automated payouts); false: payouts are manual, nothing to read. */
  automated: boolean;
  /** Per coin id, its balance in the coin's units (a decimal string, up to 18 decimals); null or absent where it could not be read. */
  balances: Map<string, string | null>;
  /** False when the chain did not answer in time and the balances are the last known ones. */
  fresh: boolean;
  /** Why the chain could not be read, when it could not. */
  problem: string;
}

let readHotWallet: () => Promise<HotWalletRead> = () =>
  Promise.resolve({ automated: false, balances: new Map<string, string | null>(), fresh: true, problem: '' });

/** The hot wallet's reader (withdrawals' treasury); the ledger does not import the withdrawals module, which imports it. */
export function configureBooksHotWallet(reader: () => Promise<HotWalletRead>): void {
  readHotWallet = reader;
}

/** A coin as the books list it, in the console's order. */
interface BooksCoin {
  _id: unknown;
  symbol: string;
}

let listBooksCoins: () => Promise<BooksCoin[]> = () => Promise.reject(new Error('the books were not told where the coins are'));

/**
 * The coins' list (the coins module's); the ledger does not import the coins module, which asks the engine to decide its
 * brakes' changes (coins → accounts → ledger).
 */
export function configureBooksCoins(lister: () => Promise<BooksCoin[]>): void {
  listBooksCoins = lister;
}

/**
 * Why the hot wallet's holdings of a coin are not given (null), or are only the last known:
 * - `noHotWallet`: no hot wallet is configured, payouts are manual;
 * - `chainUnavailable`: the chain did not answer (and no earlier read of this coin is known);
 * - `notReadable`: the chain answered but not for this coin (not a TON coin, or its jetton could not be read);
 * - `lastKnown`: the chain is slow: the holdings are those of the last read.
 */
type HoldingsReason = 'noHotWallet' | 'chainUnavailable' | 'notReadable' | 'lastKnown';

/** A house account found in the postings that HOUSE_ACCOUNTS does not name: still counted, so the trial balance shows it. */
const UNKNOWN_GROUP = 'unknown';

/** A decimal string of the chain (up to 18 decimals) and micro-units, both as 10⁻¹⁸ units, to compare exactly. */
const ATTO_PER_MICRO = 10n ** 12n;
function attoOf(decimal: string): bigint {
  const negative = decimal.startsWith('-');
  const [whole = '0', fraction = ''] = decimal.replace(/^-/, '').split('.');
  const units = BigInt(whole || '0') * 10n ** 18n + BigInt(fraction.slice(0, 18).padEnd(18, '0'));
  return negative ? -units : units;
}

/** An integer sum from the database (a number of micro-units) as a bigint. */
const microsOf = (total: unknown) => BigInt(Math.round(Number(total ?? 0)));

/**
 * The books per coin (GET /api/admin/books): what players hold (the sum of their balances), each house account's balance
 * (the sum of its postings over every operation: each closed day's from its roll-up, the rest live), the
 * trial balance (players + house: zero when the books hold and nothing is under way), how many operations a crash left
 * unfinished (recorded over 30 s ago and not yet marked by the sweep), and the hot wallet's holdings beside what is owed
 * (withdrawals:in-flight: withdrawals taken from players and not yet paid on chain).
 */
export async function booksFigures(only: { coin?: string } = {}) {
  const coins = await listBooksCoins();
  const listed = only.coin ? coins.filter((coin) => String(coin._id) === only.coin) : coins;
  const coinIds = listed.map((coin) => coin._id);
  const [held, house, recorded, wallet] = await Promise.all([
    BalanceModel.aggregate<{ _id: unknown; total: number }>([
      { $match: { coin: { $in: coinIds } } },
      { $group: { _id: '$coin', total: { $sum: '$amount' } } },
    ]),
    // Every house account of every coin, grouped by (account, coin): the closed days rolled up (rollUpBooks), plus the
    // operations posted since the last of them or not posted yet. No reward ever writes a house document, so the hot paths
    // do not pay for the books, and the days' rows keep this read from growing with the ledger's history.
    houseBalances(),
    // operations left unfinished for longer than any call takes (the engine's sweep finishes them): few, per coin they move
    OperationModel.aggregate<{ _id: unknown; count: number }>([
      { $match: { state: { $in: ['recorded', 'posted'] }, createdAt: { $lte: new Date(Date.now() - 30_000) } } },
      { $unwind: '$postings' },
      { $group: { _id: { operation: '$_id', coin: '$postings.coin' } } },
      { $group: { _id: '$_id.coin', count: { $sum: 1 } } },
    ]),
    readHotWallet(),
  ]);
  const players = new Map(held.map((row) => [String(row._id), microsOf(row.total)]));
  const inFlight = new Map(recorded.map((row) => [String(row._id), row.count]));
  return {
    asOf: new Date().toISOString(),
    /** The last closed day whose operations are read from its roll-up (null before the first). */
    rolledUpTo: house.rolledUpTo,
    coins: listed.map((coin) => {
      const id = String(coin._id);
      const balances = new Map<string, bigint>(Object.keys(HOUSE_ACCOUNTS).map((account) => [account, 0n]));
      for (const row of house.rows) {
        if (String(row._id.coin) !== id) continue;
        balances.set(row._id.account, (balances.get(row._id.account) ?? 0n) + microsOf(row.balance));
      }
      const playersHold = players.get(id) ?? 0n;
      const houseTotal = [...balances.values()].reduce((sum, balance) => sum + balance, 0n);
      const owed = balances.get('withdrawals:in-flight') ?? 0n;
      return {
        coin: { id, symbol: coin.symbol },
        players: fromMicros(playersHold),
        house: [...balances].map(([account, balance]) => ({
          account,
          group: HOUSE_ACCOUNTS[account as HouseAccount]?.group ?? UNKNOWN_GROUP,
          balance: fromMicros(balance),
        })),
        trialBalance: fromMicros(playersHold + houseTotal),
        inFlight: inFlight.get(id) ?? 0,
        hotWallet: hotWalletOf(wallet, id, owed),
      };
    }),
  };
}

/** One coin's hot wallet holdings beside what is owed; solvent when it holds at least that (null when its holdings are unknown). */
function hotWalletOf(wallet: HotWalletRead, coin: string, owed: bigint) {
  const holdings = wallet.balances.get(coin) ?? null;
  let reason: HoldingsReason | undefined;
  if (!wallet.automated) reason = 'noHotWallet';
  else if (holdings === null) reason = wallet.problem && !wallet.balances.size ? 'chainUnavailable' : 'notReadable';
  else if (!wallet.fresh) reason = 'lastKnown';
  return {
    holdings,
    owed: fromMicros(owed),
    solvent: holdings === null ? null : attoOf(holdings) >= owed * ATTO_PER_MICRO,
    ...(reason ? { reason } : {}),
  };
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * How long after a UTC day closes its roll-up waits: an operation is posted (its `postedAt` taken) a moment before its
 * write lands, so a day is summed once no write dated in it can still be on its way.
 */
const ROLL_UP_AFTER_MS = 10 * 60 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const startOfDay = (day: string) => new Date(`${day}T00:00:00.000Z`);

type HouseRow = { _id: { account: string; coin: unknown }; balance: number };
const HOUSE_POSTINGS = [
  { $unwind: '$postings' },
  { $match: { 'postings.account': { $ne: 'player' } } },
  { $group: { _id: { account: '$postings.account', coin: '$postings.coin' }, balance: { $sum: '$postings.amount' } } },
];

/** The house accounts' sums: the rolled-up days' rows, then the operations posted after the last of them (or not yet). */
async function houseBalances(): Promise<{ rows: HouseRow[]; rolledUpTo: string | null }> {
  const { last, since } = await lastRolledUp();
  const [days, live] = await Promise.all([
    last
      ? BooksDayModel.aggregate<HouseRow>([
          { $unwind: '$rows' },
          { $group: { _id: { account: '$rows.account', coin: '$rows.coin' }, balance: { $sum: '$rows.amount' } } },
        ])
      : Promise.resolve([]),
    OperationModel.aggregate<HouseRow>([
      ...(since ? [{ $match: { $or: [{ postedAt: null }, { postedAt: { $gte: since } }] } }] : []),
      ...HOUSE_POSTINGS,
    ]),
  ]);
  return { rows: [...days, ...live], rolledUpTo: last };
}

/** The last rolled-up day (null before the first), and the start of the day after it, from which operations are read live. */
async function lastRolledUp(): Promise<{ last: string | null; since: Date | null }> {
  const last = await BooksDayModel.findOne({}, { day: 1 }).sort({ day: -1 }).lean();
  return last ? { last: last.day, since: new Date(startOfDay(last.day).getTime() + DAY_MS) } : { last: null, since: null };
}

/**
 * Rolls up the books' closed UTC days, oldest first, each once (the books job, every minute): a day's house postings
 * summed by (account, coin) into one document under the day. The first day is that of the first posted operation; a day
 * without operations gets an empty one, so the rolled-up days run without a gap. At most `maxDays` a pass. Safe to run
 * twice or on two instances: a day's document is written only if absent, and its sums are the same whoever writes it.
 * Returns how many days it rolled up.
 */
export async function rollUpBooks(now: Date, maxDays = 31): Promise<number> {
  const { since } = await lastRolledUp();
  let day: Date;
  if (since) day = since;
  else {
    const first = await OperationModel.findOne({ postedAt: { $ne: null } }, { postedAt: 1 })
      .sort({ postedAt: 1 })
      .lean();
    if (!first?.postedAt) return 0;
    day = startOfDay(dayOf(first.postedAt));
  }
  let rolled = 0;
  for (; rolled < maxDays && day.getTime() + DAY_MS + ROLL_UP_AFTER_MS <= now.getTime(); rolled++) {
    const end = new Date(day.getTime() + DAY_MS);
    const inDay = { postedAt: { $gte: day, $lt: end } };
    const [sums, operations] = await Promise.all([
      OperationModel.aggregate<HouseRow>([{ $match: inDay }, ...HOUSE_POSTINGS]),
      OperationModel.countDocuments(inDay),
    ]);
    const rows = sums.map((row) => ({ account: row._id.account, coin: row._id.coin, amount: row.balance }));
    await writeOnce(dayOf(day), { rows, operations, rolledAt: now });
    day = end;
  }
  return rolled;
}

/** A day's document, unless it is there already (another instance's pass wrote the same sums first). */
async function writeOnce(day: string, fields: { rows: unknown[]; operations: number; rolledAt: Date }) {
  try {
    await BooksDayModel.updateOne({ _id: booksDayId(day) }, { $setOnInsert: { day, ...fields } }, { upsert: true });
  } catch (error) {
    // two upserts of one id racing: the loser is told its key is taken, and the winner's document stands
    if (!(await BooksDayModel.exists({ _id: booksDayId(day) }))) throw error;
  }
}
