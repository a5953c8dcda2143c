import { readFileSync } from 'node:fs';
import mongoose from 'mongoose';

const { EJSON } = mongoose.mongo.BSON;

/** A posting of an operation, as stored: 'player' (with `user`) or a house account, an amount of a coin. */
interface StoredPosting {
  account?: unknown;
  user?: unknown;
  coin?: unknown;
  amount?: unknown;
}

/**
 * What the books hold: the balances, the ledger entries and the operations, as stored (any database, a backup, the embedded
 * data file). `operations` is null when the collection is absent: a backup from before the double-entry ledger.
 */
export interface Books {
  balances: Array<{ user?: unknown; coin?: unknown; amount?: unknown }>;
  ledgerentries: Array<{
    user?: unknown;
    coin?: unknown;
    amount?: unknown;
    state?: unknown;
    idempotencyKey?: unknown;
    operation?: unknown;
  }>;
  operations: Array<{ key?: unknown; state?: unknown; postings?: StoredPosting[]; postedAt?: unknown }> | null;
  /** The books' rolled-up days (ledger/booksDay.model.ts), when the books hold any. */
  booksdays?: Array<{ day?: unknown; rows?: StoredPosting[] }>;
}

export interface BooksReport {
  balances: number;
  entries: number;
  /** How many operations the books hold; null when they hold no operations collection (their checks were skipped). */
  operations: number | null;
  /** Entries recorded but not yet posted: a crash's half-done work, which the recovery sweep posts or removes. */
  pending: number;
  /** Operations recorded and not yet posted: the engine's sweep posts them. */
  inFlight: number;
  /** Each way the books do not hold, in words, the first culprit first; empty when they do. */
  problems: string[];
}

/** A stored amount (micro-units) as a number, a string, or a BSON Long or Int32 read from a file. */
function amountOf(value: unknown): bigint {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return BigInt(value);
  if (value && typeof value === 'object' && 'toString' in value) return BigInt((value as { toString: () => string }).toString());
  return 0n;
}
const pairOf = (doc: { user?: unknown; coin?: unknown }) => `player ${String(doc.user)}, coin ${String(doc.coin)}`;

const keyOf = (doc: { key?: unknown; idempotencyKey?: unknown }) => {
  const key = doc.key ?? doc.idempotencyKey;
  return typeof key === 'string' ? key : '';
};
/** An entry's key without the `#<index>` an operation with several player postings gives each of its lines. */
const baseKey = (key: string) => key.replace(/#\d+$/, '');
const sameLine = (entry: StoredPosting, posting: StoredPosting) =>
  String(entry.user) === String(posting.user) &&
  String(entry.coin) === String(posting.coin) &&
  amountOf(entry.amount) === amountOf(posting.amount);

/**
 * The operations' checks, first culprit first: every operation's postings add up to zero per coin; every posted (or done)
 * operation's player postings each have their posted ledger line (keyed by the operation's key, or `key#index` when it has
 * several player postings) for the same player, coin and amount; every posted ledger line belongs to an operation.
 */
function operationProblems(operations: NonNullable<Books['operations']>, entries: Books['ledgerentries']): string[] {
  const problems: string[] = [];
  const lines = new Map<string, Books['ledgerentries']>();
  for (const entry of entries) {
    if (entry.state !== 'posted') continue;
    const base = baseKey(keyOf(entry));
    if (!lines.has(base)) lines.set(base, []);
    lines.get(base)!.push(entry);
  }
  const claimed = new Set<unknown>();
  const states = new Map<string, unknown>();
  for (const operation of operations) {
    const key = keyOf(operation);
    states.set(key, operation.state);
    const postings = operation.postings ?? [];
    const sums = new Map<string, bigint>();
    for (const posting of postings) sums.set(String(posting.coin), (sums.get(String(posting.coin)) ?? 0n) + amountOf(posting.amount));
    for (const [coin, sum] of sums)
      if (sum !== 0n) problems.push(`operation ${key}: its postings of coin ${coin} add up to ${sum} micro-units, not 0`);
    if (operation.state !== 'posted' && operation.state !== 'done') continue;
    const players = postings.filter((posting) => posting.account === 'player');
    const candidates = (lines.get(key) ?? []).filter((entry) => keyOf(entry) === key || players.length > 1);
    for (const posting of players) {
      const line = candidates.find((entry) => !claimed.has(entry) && sameLine(entry, posting));
      if (line) claimed.add(line);
      else
        problems.push(
          `operation ${key}: the posting of ${amountOf(posting.amount)} micro-units to ${pairOf(posting)} has no ledger line that matches it`,
        );
    }
  }
  for (const entry of entries) {
    if (entry.state !== 'posted' || claimed.has(entry)) continue;
    // a line of an operation still recorded: a crash's half-done work, which the engine's sweep finishes
    if (states.get(baseKey(keyOf(entry))) === 'recorded') continue;
    problems.push(`ledger entry ${keyOf(entry)} (${pairOf(entry)}) belongs to no posted operation`);
  }
  return problems;
}

/**
 * Each rolled-up day of the books against its operations: the sums of the house postings of the operations posted that UTC
 * day, per account and coin, are the day's rows (a row of zero may be absent on either side).
 */
function rolledUpDayProblems(days: NonNullable<Books['booksdays']>, operations: NonNullable<Books['operations']>): string[] {
  const problems: string[] = [];
  const byDay = new Map<string, Map<string, bigint>>();
  for (const operation of operations) {
    const posted = operation.postedAt instanceof Date ? operation.postedAt : null;
    if (!posted) continue;
    const day = posted.toISOString().slice(0, 10);
    if (!byDay.has(day)) byDay.set(day, new Map());
    const sums = byDay.get(day)!;
    for (const posting of operation.postings ?? []) {
      if (posting.account === 'player') continue;
      const at = `${String(posting.account)} in coin ${String(posting.coin)}`;
      sums.set(at, (sums.get(at) ?? 0n) + amountOf(posting.amount));
    }
  }
  for (const day of days) {
    const computed = byDay.get(String(day.day)) ?? new Map<string, bigint>();
    const rolled = new Map<string, bigint>();
    for (const row of day.rows ?? []) {
      const at = `${String(row.account)} in coin ${String(row.coin)}`;
      rolled.set(at, (rolled.get(at) ?? 0n) + amountOf(row.amount));
    }
    for (const at of new Set([...computed.keys(), ...rolled.keys()])) {
      const [summed, kept] = [computed.get(at) ?? 0n, rolled.get(at) ?? 0n];
      if (summed !== kept)
        problems.push(`the books' roll-up of ${String(day.day)}: ${at} is ${kept} micro-units, that day's operations add up to ${summed}`);
    }
  }
  return problems;
}

/**
 * Checks the money invariants on a copy of the books: the operations' (see operationProblems; skipped, said so by
 * `operations: null`, when the books have no operations collection, or have none while no ledger line names one: data
 * from before the double-entry ledger) and the rolled-up days' (rolledUpDayProblems), then every balance equals the sum of its player's posted entries in that coin
 * (and a coin with posted entries has that balance), no balance is negative, and no idempotency key was posted twice.
 */
export function verifyBooks(books: Books): BooksReport {
  const legacy = !books.operations || (!books.operations.length && !books.ledgerentries.some((entry) => entry.operation));
  const problems: string[] = legacy ? [] : operationProblems(books.operations!, books.ledgerentries);
  if (!legacy && books.booksdays?.length) problems.push(...rolledUpDayProblems(books.booksdays, books.operations!));
  const posted = new Map<string, bigint>();
  const keys = new Set<string>();
  let pending = 0;
  for (const entry of books.ledgerentries) {
    if (entry.state !== 'posted') {
      pending++;
      continue;
    }
    const pair = pairOf(entry);
    posted.set(pair, (posted.get(pair) ?? 0n) + amountOf(entry.amount));
    const key = keyOf(entry);
    if (key && keys.has(key)) problems.push(`the key ${key} was posted twice`);
    keys.add(key);
  }
  const held = new Map<string, bigint>();
  for (const balance of books.balances) {
    const pair = pairOf(balance);
    const amount = amountOf(balance.amount);
    if (held.has(pair)) problems.push(`${pair} has two balances`);
    held.set(pair, amount);
    if (amount < 0n) problems.push(`${pair}: the balance is negative (${amount} micro-units)`);
  }
  for (const pair of new Set([...held.keys(), ...posted.keys()])) {
    const balance = held.get(pair) ?? 0n;
    const sum = posted.get(pair) ?? 0n;
    if (balance !== sum) problems.push(`${pair}: the balance is ${balance} micro-units, its posted entries add up to ${sum}`);
  }
  return {
    balances: books.balances.length,
    entries: books.ledgerentries.length,
    operations: legacy ? null : books.operations!.length,
    pending,
    inFlight: legacy ? 0 : books.operations!.filter((operation) => operation.state === 'recorded').length,
    problems,
  };
}

/** The books of a connected MongoDB database (`operations` null when it has no such collection). */
export async function booksOfDatabase(connection: mongoose.Connection): Promise<Books> {
  const db = connection.db!;
  const [balances, ledgerentries, operations, listed, booksdays] = await Promise.all([
    db.collection('balances').find({}).toArray(),
    db.collection('ledgerentries').find({}).toArray(),
    db.collection('operations').find({}).toArray(),
    db.listCollections({ name: 'operations' }, { nameOnly: true }).toArray(),
    db.collection('booksdays').find({}).toArray(),
  ]);
  return {
    balances: balances as Books['balances'],
    ledgerentries: ledgerentries as Books['ledgerentries'],
    operations: listed.length ? (operations as Books['operations']) : null,
    booksdays: booksdays as unknown as Books['booksdays'],
  };
}

/** The books in a file: a backup written by `npm run backup`, or the embedded database's data file (its `gift` database). */
export function booksOfFile(file: string): Books {
  const read = EJSON.parse(readFileSync(file, 'utf8')) as {
    collections?: Record<string, unknown[]>;
    databases?: Record<string, Record<string, unknown[]>>;
  };
  const collections = read.collections ?? read.databases?.gift ?? {};
  return {
    balances: (collections.balances ?? []) as Books['balances'],
    ledgerentries: (collections.ledgerentries ?? []) as Books['ledgerentries'],
    operations: (collections.operations ?? null) as Books['operations'],
    booksdays: (collections.booksdays ?? []) as Books['booksdays'],
  };
}
