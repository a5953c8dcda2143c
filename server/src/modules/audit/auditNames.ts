import mongoose from 'mongoose';
import { OBJECT_ID_PATTERN } from '@gift/shared';

/**
 * The collections an audit entry names records of: the fields of a changed record that hold one of their ids, the console
 * resources whose records they are, and what names a record (read by the model's registered name, as a populate does).
 */
interface Named {
  model: string;
  select: string;
  name: (doc: Record<string, string | undefined>) => string | undefined;
  fields: string[];
  resources: string[];
}

const NAMED: Named[] = [
  {
    model: 'Account',
    select: 'username',
    name: (doc) => doc.username,
    fields: [
      'account',
      'approvedBy',
      'firstApprovedBy',
      'processedBy',
      'reviewedBy',
      'requestedBy',
      'decidedBy',
      'createdBy',
      'grantedBy',
      'passwordChangedBy',
      'lockedBy',
      'by',
    ],
    resources: ['accounts'],
  },
  {
    model: 'User',
    select: 'name username',
    name: (doc) => (doc.username ? `${doc.name ?? ''} (@${doc.username})`.trim() : doc.name),
    fields: ['user', 'referrer'],
    resources: ['users'],
  },
  {
    model: 'GiftCoin',
    select: 'symbol',
    name: (doc) => doc.symbol,
    fields: ['coin', 'approvedCoin', 'referrerCoin', 'miningCoin'],
    resources: ['gift-coins'],
  },
  { model: 'Mission', select: 'title', name: (doc) => doc.title, fields: ['mission'], resources: ['missions'] },
  { model: 'Category', select: 'title', name: (doc) => doc.title, fields: ['category'], resources: ['categories'] },
];

interface Entry {
  resource: string;
  record: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** Every id a changed record holds in a field that names one (nested fields included: `pendingGrant.requestedBy`). */
function idsIn(value: unknown, into: Map<string, Set<string>>, field = ''): void {
  if (Array.isArray(value)) for (const item of value) idsIn(item, into, field);
  else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) idsIn(inner, into, key);
  else if (typeof value === 'string' && OBJECT_ID_PATTERN.test(value)) {
    const named = NAMED.find((n) => n.fields.includes(field));
    if (named) into.get(named.model)!.add(value);
  }
}

/**
 * A page of audit entries, each with the names of the records it mentions (`names`: id → name): the record itself where it is a
 * player, an operator, a coin, a mission or a category, and the operators, players, coins, missions and categories its changed
 * fields hold ids of (`approvedBy` → the operator's username). One query per collection for the whole page, none per entry.
 */
export async function withNames<E extends Entry>(entries: E[]): Promise<Array<E & { names: Record<string, string> }>> {
  const wanted = new Map<string, Set<string>>(NAMED.map((n) => [n.model, new Set<string>()]));
  for (const entry of entries) {
    const recordOf = NAMED.find((n) => n.resources.includes(entry.resource));
    if (recordOf && OBJECT_ID_PATTERN.test(entry.record)) wanted.get(recordOf.model)!.add(entry.record);
    idsIn(entry.before, wanted);
    idsIn(entry.after, wanted);
  }
  const names = new Map<string, string>();
  await Promise.all(
    NAMED.filter((n) => wanted.get(n.model)!.size && mongoose.modelNames().includes(n.model)).map(async (n) => {
      const docs = await mongoose
        .model(n.model)
        .find({ _id: { $in: [...wanted.get(n.model)!] } })
        .select(n.select)
        .lean<Array<{ _id: unknown } & Record<string, string | undefined>>>();
      for (const doc of docs) {
        const name = n.name(doc);
        if (name) names.set(String(doc._id), name);
      }
    }),
  );
  return entries.map((entry) => {
    const mentioned = new Map<string, Set<string>>(NAMED.map((n) => [n.model, new Set<string>()]));
    idsIn(entry.before, mentioned);
    idsIn(entry.after, mentioned);
    const recordNamed = NAMED.some((n) => n.resources.includes(entry.resource));
    const ids = [...(recordNamed ? [entry.record] : []), ...[...mentioned.values()].flatMap((set) => [...set])];
    return { ...entry, names: Object.fromEntries(ids.filter((id) => names.has(id)).map((id) => [id, names.get(id)!])) };
  });
}
