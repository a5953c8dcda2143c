import { Router, type Request } from 'express';
import { isValidObjectId, Types, type Model } from 'mongoose';
import type { z } from 'zod';
import { brakeStateInput, OBJECT_ID_PATTERN, type AdminResource, type AuditAction } from '@gift/shared';
import { AppError, badInput } from '../lib/errors';
import { escapeRegex, prefixPattern } from '../db/prefixSearch';
import { checkJsonDepth } from '../lib/jsonBody';
import { operatorContext, requirePermission, type OperatorContext } from './adminAuth';
import { consolePorts } from './ports';

/** How a filter field of ra-data-simple-rest's `filter={...}` becomes a query. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any collection's model: a Model is invariant in its document type, so no narrower type admits them all
export type AnyModel = Model<any>;

type FilterKind = 'equals' | 'objectId' | 'boolean' | 'number' | 'date';

/** How the list of a resource is searched (`q`), filtered and sorted. */
interface ListRules {
  /**
   * Fields searched by the `q` filter. Large collections (players, withdrawals, reviews, the ledger, the audit)
   * search by prefix, which their indexes serve (`prefixPattern`); the small ones an operator fills by hand
   * (`substringSearch`) by case-insensitive substring, a scan of a few dozen records.
   */
  searchFields?: string[];
  substringSearch?: boolean;
  /** Reference fields the `q` filter also searches, through the referenced records' own fields (a review's player by name). */
  searchReferences?: Record<string, (text: string, limit: number) => Promise<Array<{ _id: unknown }>>>;
  /** Rewrites the text typed before it is searched (a wallet address in any of its forms to the raw form stored). */
  searchText?: (text: string) => string;
  /** Filterable fields and how to read them; every schema date field also takes `<field>_gte` / `<field>_lte`. */
  filters?: Record<string, FilterKind>;
  /** Fields the list may be sorted by, besides id and createdAt: each has an index that serves it (the index test checks). */
  sortable?: string[];
}

/** How one stored record is loaded and shown. */
interface RecordRules {
  /** Hidden fields (select: false) that present() needs to read, e.g. '+secretCode' to say whether one is set. */
  select?: string;
  /** References loaded with each record, for present() to name them (the operator of a ledger entry). */
  populate?: { path: string; select: string }[];
  /** Shapes one record for the console (defaults to the model's toJSON). */
  present?: (doc: unknown) => unknown;
  /** Completes a list's page of presented records at once (names for the ids they carry, in one query per page). */
  presentPage?: (records: unknown[]) => Promise<unknown[]>;
  /** Shapes the record of GET /:id when the show view carries more than a list row (defaults to present). */
  show?: (doc: unknown) => Promise<unknown>;
  /** Maps the id in the path to the record's id (e.g. a singleton's 'current'); null answers 404. */
  resolveId?: (id: string) => Promise<string | null>;
}

export interface ResourceDefinition<TCreate extends z.ZodType = z.ZodType, TUpdate extends z.ZodType = TCreate> {
  /** The path under /api/admin and the name in Content-Range. */
  name: string;
  /** The permission that opens it; defaults to the name (a player's stakes open with 'users'). */
  permission?: AdminResource;
  model: AnyModel;
  /** Conditions every query carries, for lists and single records alike (a ledger shows posted entries only). */
  scope?: Record<string, unknown>;
  list?: ListRules;
  record?: RecordRules;
  /**
   * POST: the body's schema, and the domain-rule write that replaces the plain insert. Omitted, a POST answers 403. A run that
   * audits the record itself (a change request of the money engine, as for an update) calls `audited()`.
   */
  create?: { schema: TCreate; run?: (input: z.infer<TCreate>, context: OperatorContext & { audited: () => void }) => Promise<unknown> };
  /**
   * PUT: the body's schema, and the domain-rule write that replaces the plain `$set` (`named` says which fields the
   * body itself carried, as opposed to the schema's defaults). Omitted, a PUT answers 403. `auditAs` is 'review'
   * where the update is a decision on a player's request, as the bulk review names it. A run that audits the write itself
   * (a change request of the money engine audits it as its step, once) calls `audited()`, and the route writes no second one.
   * `brakeState`: the brake state of the record the console's form was opened on, which a save of a record with a money brake
   * checks (accounts/changeRequests.service.ts `refuseUnseen`); undefined when the body carries none.
   */
  update?: {
    schema: TUpdate;
    run?: (
      id: string,
      input: z.infer<TUpdate>,
      context: OperatorContext & { named: (field: string) => boolean; audited: () => void; brakeState: string | undefined },
    ) => Promise<unknown>;
    auditAs?: Extract<AuditAction, 'update' | 'review'>;
  };
  /**
   * DELETE: allowed, with the domain-rule delete that replaces the plain one, or refused with the reason the
   * operator reads (405). Omitted, a DELETE answers 403.
   */
  remove?: { run?: (id: string, context: OperatorContext) => Promise<unknown> } | { refusal: string };
  /** Extra routes on the resource's router, after the permission check and before the /:id routes. */
  extraRoutes?: (router: Router) => void;
  /** Routes guarded by another permission than the resource's own (a player's gifts: `gifts`), before the resource's check. */
  ownDoors?: (router: Router) => void;
}

/**
 * A resource an operator fills and orders by hand (home content, coins): one schema for create and update, `search` fields
 * searched as substrings, filtered by enabled (and `filters`), sorted by order, the searched fields and enabled (and `sortable`).
 */
export function orderedResource<T extends z.ZodType>(
  name: string,
  model: AnyModel,
  schema: T,
  {
    search,
    remove = {},
    filters = {},
    sortable = [],
  }: { search: string[]; remove?: ResourceDefinition<T>['remove']; filters?: ListRules['filters']; sortable?: string[] },
): ResourceDefinition<T> {
  return {
    name,
    model,
    create: { schema },
    update: { schema },
    remove,
    list: {
      searchFields: search,
      substringSearch: true,
      filters: { enabled: 'boolean', ...filters },
      sortable: ['order', ...search, ...sortable, 'enabled'],
    },
  };
}

/** The longest page a list answers: react-admin's Export asks for up to 1000 records at once (its default `maxResults`). */
const MAX_PAGE = 1000;

function parseJsonParam(req: Request, name: string): unknown {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw badInput({ [name]: `${name} must be JSON` });
  checkJsonDepth(raw);
  try {
    return JSON.parse(raw);
  } catch {
    throw badInput({ [name]: `${name} must be JSON` });
  }
}

function toObjectId(value: unknown, field: string): Types.ObjectId {
  if (typeof value !== 'string' || !isValidObjectId(value) || !OBJECT_ID_PATTERN.test(value)) throw badInput({ [field]: 'Invalid id' });
  return new Types.ObjectId(value);
}

function convert(kind: FilterKind, value: unknown, field: string): unknown {
  const one = (v: unknown) => {
    switch (kind) {
      case 'objectId':
        return toObjectId(v, field);
      case 'boolean':
        if (typeof v === 'boolean') return v;
        if (v === 'true' || v === 'false') return v === 'true';
        throw badInput({ [field]: 'Must be true or false' });
      case 'number': {
        const n = typeof v === 'number' ? v : Number(v);
        if (!Number.isFinite(n)) throw badInput({ [field]: 'Must be a number' });
        return n;
      }
      case 'date': {
        const d = new Date(String(v));
        if (Number.isNaN(d.getTime())) throw badInput({ [field]: 'Must be a date' });
        return d;
      }
      default:
        if (typeof v !== 'string' && typeof v !== 'number') throw badInput({ [field]: 'Invalid value' });
        return v;
    }
  };
  return Array.isArray(value) ? { $in: value.map(one) } : one(value);
}

function dateFields(model: AnyModel): Set<string> {
  const fields = new Set<string>();
  model.schema.eachPath((path, type) => {
    if (type.instance === 'Date') fields.add(path);
  });
  return fields;
}

/** How many referenced records a search through a reference looks at. */
const MAX_REFERENCE_MATCHES = 1000;

/**
 * The console sends a filter on a nested field (`risk.level`) as an object (`{risk: {level: 'review'}}`): it is read as the
 * dotted filter when that one is declared. Anything else stays as sent (and an unknown key is refused below).
 */
function flattenNamedFilters(filter: Record<string, unknown>, filters: Record<string, unknown>): Array<[string, unknown]> {
  // entries, not an object: a key such as `__proto__` must reach the check below as sent, not set a prototype
  return Object.entries(filter).flatMap(([key, value]): Array<[string, unknown]> => {
    const nested = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];
    if (nested.length && nested.every(([sub]) => Object.hasOwn(filters, `${key}.${sub}`)))
      return nested.map(([sub, inner]): [string, unknown] => [`${key}.${sub}`, inner]);
    return [[key, value]];
  });
}

/** Builds the mongo query for ra-data-simple-rest's filter object; unknown fields are refused. */
async function buildFilter(definition: ResourceDefinition, filter: unknown): Promise<Record<string, unknown>> {
  if (filter === undefined) return {};
  if (!filter || typeof filter !== 'object' || Array.isArray(filter)) throw badInput({ filter: 'filter must be an object' });
  const query: Record<string, unknown> = {};
  const dates = dateFields(definition.model);
  const filters = definition.list?.filters;
  for (const [key, value] of flattenNamedFilters(filter as Record<string, unknown>, filters ?? {})) {
    if (value === '' || value === null || value === undefined) continue;
    if (key === 'id') {
      query._id = Array.isArray(value) ? { $in: value.map((v) => toObjectId(v, 'id')) } : toObjectId(value, 'id');
    } else if (key === 'q') {
      if (typeof value !== 'string') throw badInput({ q: 'Search must be text' });
      const { searchFields: fields = [], searchReferences, substringSearch, searchText = (typed: string) => typed } = definition.list ?? {};
      const text = searchText(value.trim().slice(0, 100));
      if (!text || (!fields.length && !searchReferences)) continue;
      const substring = new RegExp(escapeRegex(text), 'i');
      const isNumber = (f: string) => definition.model.schema.path(f)?.instance === 'Number';
      // a number field (a Telegram id) matches the whole number typed, not a part of it
      const or: Record<string, unknown>[] = fields
        .filter((f) => !isNumber(f) || /^\d{1,15}$/.test(text))
        .map((f) => ({ [f]: isNumber(f) ? Number(text) : substringSearch ? substring : prefixPattern(text, f) }));
      if (isValidObjectId(text) && OBJECT_ID_PATTERN.test(text)) or.push({ _id: new Types.ObjectId(text) });
      for (const [field, idsMatching] of Object.entries(searchReferences ?? {})) {
        const matches = await idsMatching(text, MAX_REFERENCE_MATCHES);
        if (matches.length) or.push({ [field]: { $in: matches.map((m) => m._id) } });
      }
      query.$or = or.length ? or : [{ _id: null }];
    } else if (/_(gte|lte)$/.test(key) && dates.has(key.slice(0, -4))) {
      const field = key.slice(0, -4);
      const range = (query[field] as Record<string, unknown>) ?? {};
      range[key.endsWith('gte') ? '$gte' : '$lte'] = convert('date', value, key);
      query[field] = range;
    } else if (filters && Object.hasOwn(filters, key)) {
      // own keys only: `constructor` or `__proto__` must not pass as a filter through Object's prototype
      query[key] = convert(filters[key]!, value, key);
    } else {
      throw badInput({ filter: `Unknown filter: ${key}` });
    }
  }
  return query;
}

function parseSort(definition: ResourceDefinition, sort: unknown): Record<string, 1 | -1> {
  if (sort === undefined) return { createdAt: -1, _id: -1 };
  if (!Array.isArray(sort) || sort.length !== 2 || typeof sort[0] !== 'string' || !['ASC', 'DESC'].includes(String(sort[1])))
    throw badInput({ sort: 'sort must be ["field","ASC"|"DESC"]' });
  const [field, direction] = sort as [string, string];
  const allowed = new Set(['id', 'createdAt', ...(definition.list?.sortable ?? [])]);
  if (!allowed.has(field)) throw badInput({ sort: `Cannot sort by ${field}` });
  const order = direction === 'ASC' ? 1 : -1;
  return field === 'id' ? { _id: order } : { [field]: order, _id: order };
}

function parseRange(range: unknown): { skip: number; limit: number } {
  if (range === undefined) return { skip: 0, limit: 25 };
  if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n) && n >= 0) || range[1] < range[0])
    throw badInput({ range: 'range must be [start,end]' });
  const [start, end] = range as [number, number];
  return { skip: start, limit: Math.min(end - start + 1, MAX_PAGE) };
}

/** Checks a body against its schema; a bad one answers 400 with one message per field. */
export function validate<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || 'root';
    errors[key] ??= issue.message;
  }
  throw badInput(errors);
}

/** A run's `audited()`, telling the route that the run audited its write itself (`didAudit`). */
function ownAudit() {
  const run = {
    didAudit: false,
    audited: () => {
      run.didAudit = true;
    },
  };
  return run;
}

/** What the adapter itself reads of a stored record; `present` reads the rest. */
type StoredRecord = { _id: Types.ObjectId; toJSON: () => unknown };

/**
 * One ra-data-simple-rest adapter for every console resource:
 * GET /?sort&range&filter (array + Content-Range), GET /:id, POST /, PUT /:id, DELETE /:id.
 */
export function resourceRouter(definition: ResourceDefinition): Router {
  const router = Router();
  const {
    select = '',
    populate = [],
    show,
    resolveId,
    presentPage = (records: unknown[]) => Promise.resolve(records),
  } = definition.record ?? {};
  const present = definition.record?.present ?? ((doc: unknown) => (doc as { toJSON: () => unknown }).toJSON());
  const findOr404 = async (pathId: string) => {
    const id = resolveId ? await resolveId(pathId) : pathId;
    if (!id) throw new AppError('NOT_FOUND');
    if (!OBJECT_ID_PATTERN.test(id)) throw badInput({ id: 'Invalid id' });
    const doc = (await definition.model
      .findOne({ _id: id, ...definition.scope })
      .select(select)
      .populate(populate)) as StoredRecord | null;
    if (!doc) throw new AppError('NOT_FOUND');
    return doc;
  };
  const resource = definition.permission ?? (definition.name as AdminResource);
  // every `:id` of the resource's routes, its own doors and extra routes included: an id that is not one is the caller's
  // mistake (400), before any query could turn it into a driver error; a singleton's name (`current`) is resolved first
  router.param('id', (req, _res, next, value: string) => {
    const named = resolveId ? resolveId(value) : Promise.resolve(value);
    named.then(
      (id) => next(id !== null && !OBJECT_ID_PATTERN.test(id) ? badInput({ id: 'Invalid id' }) : undefined),
      (error: unknown) => next(error),
    );
  });
  definition.ownDoors?.(router);
  // a resource's own lists and records open to the reads other permissions imply; a sub-resource only to its own permission
  router.use(requirePermission(resource, { lookups: !definition.permission }));
  const audit = ({ operator }: OperatorContext, action: AuditAction, record: string, before: unknown, after: unknown) =>
    consolePorts().recordAudit({ operator, action, resource: definition.name, record, before, after });
  definition.extraRoutes?.(router);

  router.get('/', async (req, res) => {
    const query = { ...(await buildFilter(definition, parseJsonParam(req, 'filter'))), ...definition.scope };
    const sort = parseSort(definition, parseJsonParam(req, 'sort'));
    const { skip, limit } = parseRange(parseJsonParam(req, 'range'));
    const [rows, total] = await Promise.all([
      definition.model.find(query).select(select).sort(sort).skip(skip).limit(limit).populate(populate) as Promise<StoredRecord[]>,
      // an unfiltered list of a large collection is counted from the collection's metadata, not by a scan
      Object.keys(query).length ? definition.model.countDocuments(query) : definition.model.estimatedDocumentCount(),
    ]);
    const end = rows.length ? skip + rows.length - 1 : skip;
    res.set('Content-Range', `${definition.name} ${skip}-${end}/${total}`);
    res.json(await presentPage(rows.map(present)));
  });

  router.get('/:id', async (req, res) => {
    const doc = await findOr404(req.params.id);
    res.json(show ? await show(doc) : present(doc));
  });

  router.post('/', async (req, res) => {
    const { create } = definition;
    if (!create) throw new AppError('FORBIDDEN');
    const context = operatorContext(req);
    const input = validate(create.schema, req.body);
    const run = ownAudit();
    const created = create.run
      ? await create.run(input, { ...context, audited: run.audited })
      : ((await definition.model.create(input as object)) as StoredRecord);
    const shown = present(created) as { id: string };
    if (!run.didAudit) await audit(context, 'create', shown.id, null, shown);
    res.status(201).json(shown);
  });

  router.put('/:id', async (req, res) => {
    const { update } = definition;
    if (!update) throw new AppError('FORBIDDEN');
    const context = operatorContext(req);
    const current = await findOr404(req.params.id);
    const id = String(current._id);
    const input = validate(update.schema, req.body);
    const { brakeState } = validate(brakeStateInput, req.body);
    const named = (field: string) => typeof req.body === 'object' && req.body !== null && Object.hasOwn(req.body as object, field);
    const run = ownAudit();
    const updated = update.run
      ? await update.run(id, input, { ...context, named, audited: run.audited, brakeState })
      : ((await definition.model
          .findByIdAndUpdate(id, { $set: input as object }, { returnDocument: 'after', runValidators: true })
          .select(select)) as StoredRecord | null);
    if (!updated) throw new AppError('NOT_FOUND');
    const shown = present(updated);
    if (!run.didAudit) await audit(context, update.auditAs ?? 'update', id, present(current), shown);
    res.json(shown);
  });

  router.delete('/:id', async (req, res) => {
    const { remove } = definition;
    if (!remove) throw new AppError('FORBIDDEN');
    if ('refusal' in remove) throw new AppError('CANNOT_DELETE', { reason: remove.refusal });
    const context = operatorContext(req);
    const doc = await findOr404(req.params.id);
    if (remove.run) await remove.run(String(doc._id), context);
    else await definition.model.deleteOne({ _id: doc._id });
    const shown = present(doc);
    await audit(context, 'delete', String(doc._id), shown, null);
    res.json(shown);
  });

  return router;
}
