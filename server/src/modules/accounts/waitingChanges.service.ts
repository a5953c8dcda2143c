import { createHash } from 'node:crypto';
import { Schema, Types } from 'mongoose';
import { objectId } from '../../db/ids';
import type { AnyModel } from '../../http/resource';
import type { Operator } from '../audit/audit.service';

/**
 * A change to a record that loosens a money brake (a coin's thresholds, a staking offer's profits), kept on the record until a
 * second, independent operator decides: `set` holds the fields as they would be stored, applied by one conditional update.
 */
export const waitingChangeSchema = new Schema(
  {
    id: { type: String, required: true },
    requestedBy: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    requestedAt: { type: Date, required: true },
    set: { type: Schema.Types.Mixed, required: true },
  },
  { _id: false, minimize: false },
);

/** The last decision on a record's waiting change, so a repeat of an approval a crash interrupted finishes it and no more. */
export const changeDecisionSchema = new Schema(
  {
    id: { type: String, required: true },
    status: { type: String, enum: ['approved', 'rejected'], required: true },
    requestedBy: { type: Schema.Types.ObjectId, ref: 'Account' },
    decidedBy: { type: Schema.Types.ObjectId, ref: 'Account' },
    decidedAt: Date,
    reason: { type: String, default: '' },
    set: { type: Schema.Types.Mixed },
  },
  { _id: false, minimize: false },
);

export interface WaitingChange {
  id: string;
  requestedBy: Types.ObjectId;
  requestedAt: Date;
  set: Record<string, unknown>;
}

export interface ChangeDecision extends WaitingChange {
  status: 'approved' | 'rejected';
  decidedBy?: unknown;
}

/** A change this operator asks for now, of the fields in `set` (as stored). */
export function askChange(set: Record<string, unknown>, operator: Operator, now: Date): WaitingChange {
  return { id: new Types.ObjectId().toHexString(), requestedBy: objectId(operator.id), requestedAt: now, set };
}

/** Where changes wait: the records' model, the console's resource name, and how the audit and a message name them. */
export interface ChangeTarget {
  model: AnyModel;
  resource: string;
  /** "this brake change": the four-eyes refusal names it. */
  what: string;
  /** The change's fields as the console reads them (decimals for amounts), for the audit. */
  present: (set: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Writes `update` (the change's fields, its decision, the change cleared) if the change `changeId` still waits on the record:
   * true when written. Absent: one conditional update. A coin's place on TON claims its keys first.
   */
  apply?: (recordId: Types.ObjectId, changeId: string, update: Record<string, unknown>) => Promise<boolean>;
}

/** A brake's waiting change and last decision as a read of its record found them (ids only count). */
export interface BrakeRead {
  waiting?: { id: string } | null;
  last?: { id: string } | null;
}

/**
 * The brake state a read of a record shows, which the console sends back with a save of it (`brakeState`; a save sent from
 * a form opened on another state is refused, changeRequests.service.ts `refuseUnseen`): an opaque token of each brake's
 * waiting change and last decision (App Config has three brakes, the other records one). It is a field of the record rather
 * than HTTP's ETag and If-Match: each row of a list carries its own (react-admin fills a form from a list's row as well as from
 * a read of the record), ra-data-simple-rest's update sends no header of a call's own, and the token is no tag of the whole
 * representation (an edit of another field leaves it as it is), nor is its refusal HTTP's 412: it is the console's 409.
 */
export function brakeStateOf(reads: readonly BrakeRead[]): string {
  const ids = reads.map(({ waiting, last }) => [waiting?.id ?? null, last?.id ?? null]);
  return createHash('sha256').update(JSON.stringify(ids)).digest('base64url').slice(0, 22);
}

/** A record as the console reads it (its JSON), with the brake state of its one waiting change and last decision. */
export function withBrakeState(record: Record<string, unknown>): Record<string, unknown> {
  const read = { waiting: record.waitingChange, last: record.lastChangeDecision } as BrakeRead;
  return { ...record, brakeState: brakeStateOf([read]) };
}

/** A record as the console reads it, its waiting change's fields as its target shows them (decimals for amounts). */
export function presentWithChange(target: Pick<ChangeTarget, 'present'>, doc: unknown): Record<string, unknown> {
  const record = withBrakeState((doc as { toJSON: () => Record<string, unknown> }).toJSON());
  const waiting = record.waitingChange as { set: Record<string, unknown>; requestedBy: unknown } | null | undefined;
  return {
    ...record,
    waitingChange: waiting ? { ...waiting, requestedBy: String(waiting.requestedBy), set: target.present(waiting.set) } : null,
  };
}
