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

/** A record as the console reads it, its waiting change's fields as its target shows them (decimals for amounts). */
export function presentWithChange(target: Pick<ChangeTarget, 'present'>, doc: unknown): Record<string, unknown> {
  const record = (doc as { toJSON: () => Record<string, unknown> }).toJSON();
  const waiting = record.waitingChange as { set: Record<string, unknown>; requestedBy: unknown } | null | undefined;
  return {
    ...record,
    waitingChange: waiting ? { ...waiting, requestedBy: String(waiting.requestedBy), set: target.present(waiting.set) } : null,
  };
}
