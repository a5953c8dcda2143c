import { Types } from 'mongoose';
import { objectId } from '../../db/ids';
import { AppError } from '../../lib/errors';
import type { AnyModel } from '../../http/resource';
import { recordAudit, type Operator } from '../audit/audit.service';
import { finishLeftOver, recordBeforeWrite, type OperationKind } from '../ledger/ledger.service';
import { brakeStateOf, type BrakeRead, type ChangeTarget } from './waitingChanges.service';

/**
 * A save that asks for a change loosening a money brake (a mission's reward, App Config's rewards, a coin's brakes, a staking
 * offer's or a Stars offer's terms) holds the change on its record, waiting for a second operator's decision
 * (`change-decision`, changeDecision.kinds.ts). The request is an operation of the money engine too: `change-request`, with no
 * postings, keyed by the change it holds (the first, when one save holds several), recorded before the save's write (an edit,
 * or a record created with the change held) and finished after it. Its admit finds the change on the record (waiting, or
 * decided since); its step writes the save's audit, as the console route would, once, naming the waiting change it replaced.
 * A crash after the write is finished by the engine's sweep alone, which also removes the operation of a write that never
 * landed. Where the change is held is a target, registered at the composition root (server/src/moneyKinds.ts).
 */

const CHANGE_REQUEST = 'change-request';

/** A record where such requests are held. */
export interface RequestTarget {
  /** The console resource of the records (the audit names it). */
  resource: string;
  /** Whether the record holds one of these changes, waiting or decided: the edit's write landed. */
  holds: (record: string, changeIds: readonly string[]) => Promise<boolean>;
  /** The record as the console shows it now (the audit's `after`), null when it is gone. */
  shown: (record: string) => Promise<unknown>;
}

/** A request as its operation records it. */
interface ChangeRequest {
  resource: string;
  record: string;
  /** 'create': the record was saved new with the change held (absent in an older version's requests: an edit). */
  action?: 'create' | 'update';
  changes: string[];
  /** The changes that waited on the record and this save replaced with its own (absent in an older version's requests). */
  replaces?: string[];
  operator: Operator;
  /** The record as the console showed it before the edit (the audit's `before`; null for a create). */
  before: unknown;
}

/** The money kind holding requests on these targets (server/src/moneyKinds.ts lists them). */
export function changeRequestKinds(targets: readonly RequestTarget[]): OperationKind[] {
  const byResource = new Map(targets.map((target) => [target.resource, target]));
  const targetOf = ({ resource }: ChangeRequest) => {
    const target = byResource.get(resource);
    if (!target) throw new Error(`the request target ${resource} is not registered (server/src/moneyKinds.ts)`);
    return target;
  };
  return [
    {
      kind: CHANGE_REQUEST,
      admit: async (operation) => {
        const request = operation.data as unknown as ChangeRequest;
        // the edit's write never landed (refused, or a crash before it), or a later edit replaced it first: nothing to finish
        return (await targetOf(request).holds(request.record, request.changes)) ? null : new AppError('NOT_FOUND');
      },
      steps: [
        {
          name: 'audit',
          run: async (operation) => {
            const request = operation.data as unknown as ChangeRequest;
            const after = await targetOf(request).shown(request.record);
            if (!after) return;
            const replaced = request.replaces ?? [];
            await recordAudit({
              operator: request.operator,
              action: request.action ?? 'update',
              resource: request.resource,
              record: request.record,
              before: request.before,
              after,
              ...(replaced.length ? { note: `Replaced the waiting change ${replaced.join(', ')}` } : {}),
              key: operation.key,
            });
          },
        },
      ],
    },
  ];
}

/**
 * A save's `write`, as the request of the money engine when it holds changes on `record` (none: the write alone): recorded
 * (once per first change) before the write and finished after it, so the save is audited once, as the operator's, by its
 * request's step (`audited()` tells the console route to write no audit of its own). A write that did not land leaves nothing
 * (the operation is refused and removed). `replaces`: the change that waited on the record when the save read it (finish its
 * own request first, `finishRequests`), named by the audit when this save holds another in its place.
 */
export async function writeRequested<T>(
  target: RequestTarget,
  request: Omit<ChangeRequest, 'resource' | 'before'> & { before: () => unknown },
  write: () => Promise<T>,
  audited: () => void,
): Promise<T> {
  if (!request.changes.length) return write();
  const finish = await recordBeforeWrite({
    kind: CHANGE_REQUEST,
    key: keyOf(target, request.changes[0]!),
    refType: target.resource,
    refId: request.record,
    players: [],
    house: [],
    createdBy: objectId(request.operator.id),
    // the console's view of the record, as plain JSON (dates as strings), as the audit stores it
    data: { ...request, before: JSON.parse(JSON.stringify(await request.before())) as unknown, resource: target.resource },
  });
  let written: T;
  try {
    written = await write();
  } catch (error) {
    await finish(false);
    throw error;
  }
  await finish(!!written);
  audited();
  return written;
}

/**
 * A record created with the change `held` (none: the write alone), as `writeRequested` saves an edit: `create` writes it under
 * `id` (a new one unless given), which the request names, audited as its creation.
 */
export function createRequested<T>(
  target: RequestTarget,
  { operator, held, id = new Types.ObjectId() }: { operator: Operator; held: unknown; id?: Types.ObjectId },
  create: (id: Types.ObjectId) => Promise<T>,
  audited: () => void,
): Promise<T> {
  const request = { action: 'create' as const, record: String(id), ...changesOf(null, held), operator, before: () => null };
  return writeRequested(target, request, () => create(id), audited);
}

const keyOf = (target: RequestTarget, firstChange: string) => `${CHANGE_REQUEST}:${target.resource}:${firstChange}`;

/**
 * Finishes the requests that held these changes, if a crash left them unfinished: an edit saved again over a change that waits
 * audits the earlier edit first, as the sweep would.
 */
export async function finishRequests(target: RequestTarget, changeIds: readonly string[]): Promise<void> {
  for (const changeId of changeIds) await finishLeftOver(keyOf(target, changeId));
}

/**
 * What a save asks and replaces of a record's one waiting change: `waiting`, the change on the record when the save read it;
 * `next`, the save's own (null: it drops what waited; undefined: it keeps it). Only a change held in another's place is a
 * replacement its request names; one dropped is shown by the save's audit (waiting, then none).
 */
export function changesOf(waiting: { id: string } | null | undefined, next: unknown) {
  const held = next as { id: string } | null | undefined;
  return { changes: held ? [held.id] : [], replaces: waiting && held ? [waiting.id] : [] };
}

/** The records of a target where changes wait (waitingChanges.service.ts) as where saves hold them; `shown`: as the console reads one. */
export function requestsOn(target: ChangeTarget, shown: (record: string) => Promise<unknown>): RequestTarget & { model: AnyModel } {
  return {
    resource: target.resource,
    model: target.model,
    holds: async (record, [changeId]) =>
      !!(await target.model.exists({
        _id: objectId(record),
        $or: [{ 'waitingChange.id': changeId }, { 'lastChangeDecision.id': changeId }],
      })),
    shown,
  };
}

/** A record's waiting change and last decision as a save read them (the missions name them `waiting` and `lastDecision`). */
type ReadState = BrakeRead;

/**
 * Refuses a save (409 `RECORD_CHANGED`, before its request and its write) whose form was opened on another brake state than
 * the save's own read finds (`sent`: the record's `brakeState` as the console loaded it; `reads`: each brake's waiting change
 * and last decision as the save read them): a change held or decided since the operator opened the form, which they never saw.
 * The save's conditional write is filtered on that read (`asRead`), equal here to the state the operator saw, so the write
 * lands only on it: no window between this check and the write. None sent (an API client, an older console): the save's own
 * read alone, as before.
 */
export function refuseUnseen(sent: string | undefined, reads: readonly ReadState[]): void {
  if (sent !== undefined && sent !== brakeStateOf(reads)) throw new AppError('RECORD_CHANGED');
}

/**
 * The filter that lets a save's write land only on the record as the save read it: the same waiting change (or none) and the
 * same last decision, so a save never replaces a change it did not see nor writes live values back over an approval since.
 */
export function asRead({ waiting, last }: ReadState, fields = { waiting: 'waitingChange', last: 'lastChangeDecision' }) {
  return { [`${fields.waiting}.id`]: waiting?.id ?? null, [`${fields.last}.id`]: last?.id ?? null };
}

/** A save's conditional write as the console answers it: the record, or 409 when it changed since the save read it (404: gone). */
export async function writtenAsRead<T>(model: { exists: (filter: object) => Promise<unknown> }, id: string, written: T | null): Promise<T> {
  if (written) return written;
  throw (await model.exists({ _id: objectId(id) })) ? new AppError('RECORD_CHANGED') : new AppError('NOT_FOUND');
}

/**
 * A save's write of `update` on the record `id` only as the save read it, as the console answers it: on the same waiting change
 * and last decision (`read`; `places`: where the record keeps them) and on any live values it writes back (`live`). The record
 * after the write (with the hidden fields `select` names), or 409 when it changed since (404: gone).
 */
export async function updateAsRead(
  model: AnyModel,
  id: string,
  read: ReadState,
  update: object,
  { live = {}, places, select }: { live?: object; places?: Parameters<typeof asRead>[1]; select?: string } = {},
): Promise<unknown> {
  const filter = { _id: id, ...asRead(read, places), ...live };
  const written = model.findOneAndUpdate(filter, update, { returnDocument: 'after', runValidators: true });
  return writtenAsRead(model, id, await (select ? written.select(select) : written));
}

/**
 * A save of a record of `requestsOn`'s targets, as `writeRequested` saves it: the request of the change it holds (`held`, as
 * `changesOf` reads it), and `update` written only on the record as the save read it (`read`: its waiting change and last
 * decision; `live`: the live values it writes back) and as its form was opened on it (`brakeState`, `refuseUnseen`), else 409.
 */
export async function saveAsRead(
  target: ReturnType<typeof requestsOn>,
  save: {
    id: string;
    read: { waitingChange?: ReadState['waiting']; lastChangeDecision?: ReadState['last'] } | null;
    held: unknown;
    brakeState: string | undefined;
  },
  { operator, update, live }: { operator: Operator; update: object; live: object },
  audited: () => void,
): Promise<unknown> {
  const { id, read, held } = save;
  // a record gone since the route found it answers 404 from the write
  if (read) refuseUnseen(save.brakeState, [{ waiting: read.waitingChange, last: read.lastChangeDecision }]);
  return writeRequested(
    target,
    { record: id, ...changesOf(read?.waitingChange, held), operator, before: () => target.shown(id) },
    () => updateAsRead(target.model, id, { waiting: read?.waitingChange, last: read?.lastChangeDecision }, update, { live }),
    audited,
  );
}
