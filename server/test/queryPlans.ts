import mongoose from 'mongoose';

/**
 * The index test: every query the product's own code sends during a test file (not the tests' own set-up and
 * checks) is recorded through mongoose's debug hook, and each must be served by an index its model declares,
 * for its filter and for its sort. Any other fails the file, unless it is one of the admitted scans below.
 */

interface Shape {
  collection: string;
  /** Fields compared for equality (including `$in` of a few values). */
  equal: string[];
  /** Fields compared otherwise: a range, `$ne`, `$exists`, an anchored regex. */
  other: string[];
  /** A field the filter cannot use an index for (an unanchored or case-insensitive regex). */
  unservable: string[];
  sort: Array<[string, 1 | -1]>;
  /** Branches of an `$or`: each is served on its own. */
  branches: Shape[];
  where: string;
}

/**
 * Scans admitted on purpose, each with its reason. A collection named here is scanned by any query; a
 * `collection:field` entry admits filters on that field alone.
 */
const ADMITTED_SCANS: Record<string, string> = {
  // one record, read by key
  appconfigs: 'the one App Config record',
  signingsecrets: 'one record per secret name',
  // a few dozen records an operator makes by hand, listed in full on every home or console page
  giftcoins: 'the coins: a handful, listed whole',
  categories: 'the categories: a handful, listed whole',
  covers: 'the covers: a handful, listed whole',
  partners: 'the partners: a handful, listed whole',
  faqs: 'the Help page questions: a few dozen, listed whole',
  staroffers: 'the Stars shop items: a handful, listed whole',
  stakingcoins: 'the staking offers: a handful, listed whole',
  missions: 'the missions: at most a few hundred, listed whole by category',
  accounts: 'the operators: a few dozen',
  broadcasts: 'the broadcasts: a few a week, searched by text',
  ledgerholds: 'the frozen and banned players: a few, compared whole with their statuses',
  jobleases: 'one lease per job name: a few records',
  // once per database, at the first start after the upgrade (staking.service.ts finishStakesOfOlderVersion)
  'stakes:state': 'the stakes an older version left opening: one scan, once',
  'stakes:paidOut': 'the claims an older version left unpaid: one scan, once',
  'withdrawals:amountTaken': 'the requests an older version left untaken: one scan, once',
  'withdrawals:settled': 'the decisions an older version left unsettled: one scan, once',
  'miningsessions:awaitingCredit': 'the moves an older version left uncredited: one scan, once',
  'users:referralState': 'the referrals an older version left pending: one scan, once',
  'usermissions:uncounted': "the Go's an older version left uncounted: one scan, once",
};

const recorded: Shape[] = [];
let installed = false;
/** Those counting the product's operations now (`commandsDuring`). */
const counters = new Set<string[]>();

/** The operations the product's own code sends while `run` runs, as `collection.method`, in order (the tests' own left out). */
export async function commandsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const commands: string[] = [];
  counters.add(commands);
  try {
    await run();
  } finally {
    counters.delete(commands);
  }
  return commands;
}

function fieldsOf(filter: Record<string, unknown>, shape: Shape) {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$or' || field === '$and') {
      for (const branch of condition as Array<Record<string, unknown>>) {
        const inner = emptyShape(shape.collection, shape.where);
        fieldsOf(branch, inner);
        if (field === '$or') shape.branches.push(inner);
        else {
          shape.equal.push(...inner.equal);
          shape.other.push(...inner.other);
          shape.unservable.push(...inner.unservable);
        }
      }
      continue;
    }
    if (field.startsWith('$')) continue;
    if (condition instanceof RegExp) {
      (condition.source.startsWith('^') && !condition.flags.includes('i') ? shape.other : shape.unservable).push(field);
    } else if (
      condition &&
      typeof condition === 'object' &&
      !Array.isArray(condition) &&
      !(condition instanceof mongoose.Types.ObjectId) &&
      !(condition instanceof Date)
    ) {
      const operators = Object.keys(condition);
      if (operators.some((op) => op === '$regex')) {
        const regex = (condition as { $regex: unknown; $options?: string }).$regex;
        const source = regex instanceof RegExp ? regex.source : String(regex);
        const insensitive =
          (regex instanceof RegExp && regex.flags.includes('i')) || (condition as { $options?: string }).$options?.includes('i');
        (source.startsWith('^') && !insensitive ? shape.other : shape.unservable).push(field);
      } else if (operators.length === 1 && (operators[0] === '$in' || operators[0] === '$eq')) shape.equal.push(field);
      else shape.other.push(field);
    } else shape.equal.push(field);
  }
}

function emptyShape(collection: string, where: string): Shape {
  return { collection, equal: [], other: [], unservable: [], sort: [], branches: [], where };
}

function shapeOf(
  collection: string,
  filter: Record<string, unknown> | undefined,
  sort: Record<string, 1 | -1 | 'asc' | 'desc'> | undefined,
  where: string,
) {
  const shape = emptyShape(collection, where);
  fieldsOf(filter ?? {}, shape);
  shape.sort = Object.entries(sort ?? {}).map(([field, direction]) => [field, direction === -1 || direction === 'desc' ? -1 : 1]);
  return shape;
}

/** The product's frame that sent the query, or null when a test's own code did. */
function productCaller(): string | null {
  const frames = (new Error().stack ?? '').split('\n').slice(2);
  for (const frame of frames) {
    const match = /\/server\/src\/(.+?\.ts):(\d+)/.exec(frame);
    if (match && !match[1]!.endsWith('.test.ts')) return `${match[1]}:${match[2]}`;
  }
  return null;
}

/** Starts recording the product's queries (once per test file). */
export function recordQueries() {
  if (installed) return;
  installed = true;
  mongoose.set('debug', (collection: string, method: string, ...args: unknown[]) => {
    const where = productCaller();
    if (!where) return;
    for (const commands of counters) commands.push(`${collection}.${method}`);
    const [first, second, third] = args as [
      Record<string, unknown> | undefined,
      Record<string, unknown> | undefined,
      Record<string, unknown> | undefined,
    ];
    switch (method) {
      case 'find':
      case 'findOne':
        recorded.push(shapeOf(collection, first, (second?.sort ?? third?.sort) as never, where));
        break;
      case 'countDocuments':
      case 'distinct':
      case 'deleteMany':
      case 'deleteOne':
      case 'updateMany':
      case 'updateOne':
      case 'findOneAndUpdate':
      case 'findOneAndDelete':
      case 'replaceOne':
        recorded.push(
          shapeOf(
            collection,
            method === 'distinct' ? second : first,
            (method === 'findOneAndUpdate' ? third?.sort : undefined) as never,
            where,
          ),
        );
        break;
      case 'aggregate': {
        const pipeline = (first as unknown as Array<Record<string, unknown>>) ?? [];
        const match = pipeline[0]?.$match as Record<string, unknown> | undefined;
        const sort = (match ? pipeline[1]?.$sort : pipeline[0]?.$sort) as never;
        recorded.push(shapeOf(collection, match, sort, where));
        break;
      }
      default:
        break;
    }
  });
}

type IndexKeys = Array<[string, number]>;

function indexesOf(collection: string): IndexKeys[] {
  const model = Object.values(mongoose.models).find((m) => m.collection.collectionName === collection);
  if (!model) return [];
  return [[['_id', 1]], ...model.schema.indexes().map(([keys]) => Object.entries(keys as Record<string, number>))];
}

/** Whether one index serves this filter and sort: its leading fields are the filter's, then the sort's in order (or all reversed). */
function serves(index: IndexKeys, shape: Shape): boolean {
  const fields = index.map(([field]) => field);
  const filtered = new Set([...shape.equal, ...shape.other]);
  if (shape.sort.length === 0) return filtered.has(fields[0]!);
  // equality fields may lead the index in any order; then the sort's fields, all in one direction or all reversed
  let position = 0;
  while (position < fields.length && shape.equal.includes(fields[position]!)) position++;
  const rest = index.slice(position, position + shape.sort.length);
  if (rest.length < shape.sort.length) return false;
  const same = shape.sort.every(([field, direction], i) => rest[i]![0] === field && rest[i]![1] === direction);
  const reversed = shape.sort.every(([field, direction], i) => rest[i]![0] === field && rest[i]![1] === -direction);
  return same || reversed;
}

/** Why a recorded query is not served, or null when it is. */
function unserved(shape: Shape): string | null {
  if (ADMITTED_SCANS[shape.collection]) return null;
  const fields = [...shape.equal, ...shape.other];
  if (fields.length === 1 && !shape.branches.length && ADMITTED_SCANS[`${shape.collection}:${fields[0]}`]) return null;
  // an $or beside fields an index serves is only a residual check on what that index finds
  if (shape.branches.length && shape.equal.length + shape.other.length > 0 && unserved({ ...shape, branches: [] }) === null) return null;
  if (shape.branches.length) {
    // a search's branches: each must find its matches through an index; the few matches are then sorted
    const failing = shape.branches.map((branch) => unserved({ ...branch, sort: [] })).filter(Boolean);
    return failing.length ? failing.join('; ') : null;
  }
  if (shape.unservable.length)
    return `${shape.collection}: ${shape.unservable.join(', ')} is matched by a regex no index can use (${shape.where})`;
  if (shape.equal.includes('_id')) return null;
  // the _id index serves an order by id alone
  const target =
    shape.sort.length === 1 && shape.sort[0]![0] === '_id' && shape.equal.length + shape.other.length === 0
      ? { ...shape, sort: [] as Shape['sort'], equal: ['_id'] }
      : shape;
  if (target.equal.length + target.other.length === 0 && target.sort.length === 0)
    return `${shape.collection}: a scan of the whole collection (${shape.where})`;
  if (indexesOf(shape.collection).some((index) => serves(index, target))) return null;
  const described = [
    `filter {${[...target.equal, ...target.other].join(', ')}}`,
    target.sort.length ? `sort {${target.sort.map(([f, d]) => `${f}: ${d}`).join(', ')}}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `${shape.collection}: no index serves ${described} (${shape.where})`;
}

/** Every distinct query of this file no index serves. */
export function unservedQueries(): string[] {
  return [...new Set(recorded.map(unserved).filter((reason): reason is string => reason !== null))].sort();
}
