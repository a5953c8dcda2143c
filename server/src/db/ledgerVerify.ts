import { readFileSync } from 'node:fs';
import mongoose from 'mongoose';

const { EJSON } = mongoose.mongo.BSON;

/** What the books hold: the balances and the ledger entries, as stored (any database, a backup, the embedded data file). */
export interface Books {
  balances: Array<{ user?: unknown; coin?: unknown; amount?: unknown }>;
  ledgerentries: Array<{ user?: unknown; coin?: unknown; amount?: unknown; state?: unknown; idempotencyKey?: unknown }>;
}

export interface BooksReport {
  balances: number;
  entries: number;
  /** Entries recorded but not yet posted: a crash's half-done work, which the recovery sweep posts or removes. */
  pending: number;
  /** Each way the books do not hold, in words; empty when they do. */
  problems: string[];
}

/** A stored amount (micro-units) as a number, a string, or a BSON Long or Int32 read from a file. */
function amountOf(value: unknown): bigint {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'string') return BigInt(value);
  if (value && typeof value === 'object' && 'toString' in value) return BigInt((value as { toString: () => string }).toString());
  return 0n;
}
const pairOf = (doc: { user?: unknown; coin?: unknown }) => `player ${String(doc.user)}, coin ${String(doc.coin)}`;

/**
 * Checks the money invariants on a copy of the books: every balance equals the sum of its player's posted entries in that
 * coin (and a coin with posted entries has that balance), no balance is negative, and no idempotency key was posted twice.
 */
export function verifyBooks(books: Books): BooksReport {
  const problems: string[] = [];
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
    const key = typeof entry.idempotencyKey === 'string' ? entry.idempotencyKey : '';
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
  return { balances: books.balances.length, entries: books.ledgerentries.length, pending, problems };
}

/** The books of a connected MongoDB database. */
export async function booksOfDatabase(connection: mongoose.Connection): Promise<Books> {
  const db = connection.db!;
  const [balances, ledgerentries] = await Promise.all([
    db.collection('balances').find({}).toArray(),
    db.collection('ledgerentries').find({}).toArray(),
  ]);
  return { balances: balances as Books['balances'], ledgerentries: ledgerentries as Books['ledgerentries'] };
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
  };
}
