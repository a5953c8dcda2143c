import { objectId } from '../../db/ids';
import { AppError } from '../../lib/errors';
import { runOperation, type OperationKind } from '../ledger/ledger.service';
import type { Operator } from '../audit/audit.service';
import { assertIndependentApprover } from './fourEyes.service';

/**
 * A second operator's decision on a change that loosens a money brake (a mission's reward, App Config's rewards, a coin's
 * thresholds, a staking offer's terms, a league's prizes, a Stars shop offer's terms), as a kind of the money engine
 * (ledger/engine.ts): `change-decision`, an operation with no postings, keyed by the change, the decision and the operator, so a repeat of the same decision is the
 * same operation. Its admit takes the decision in one conditional write on the record, from the change still waiting, and
 * applies an approved change in that same write: however many operators decide at once, one decision stands and the others
 * are refused and leave nothing. Its step writes the audit, once. A crash after the decision (`ledger:after-apply:change-
 * decision`) is finished by the approver's repeat or the engine's sweep alone: no brake keeps a recoverer of its own.
 * Where the change waits is a target, each registered at the composition root (server/src/moneyKinds.ts).
 */

const CHANGE_DECISION = 'change-decision';

/** A decision as its operation records it: everything its admit and its audit need, the change's contents included. */
export interface ChangeDecision {
  /** The target's name (`DecisionTarget.name`). */
  target: string;
  /** The record the change waits on (for App Config's rewards, which reward). */
  record: string;
  changeId: string;
  status: 'approved' | 'rejected';
  reason: string;
  operator: Operator;
  at: Date;
  /** The waiting change as stored, read when the decision was asked for. */
  change: Record<string, unknown>;
}

/** Where a change waits, as its record says. */
interface ChangeState {
  waiting: { id: string; requestedBy: unknown } | null;
  last: { id: string; status: string; decidedBy?: unknown } | null;
}

export interface DecisionTarget {
  name: string;
  /** "this mission reward": the four-eyes refusal names it. */
  what: string;
  /** How a change no longer waiting is told when the last decision is not its own ('replaced by a later edit'). */
  replaced: string;
  /** The record's waiting change and last decision; null when the record is not there. */
  state: (decision: ChangeDecision) => Promise<ChangeState | null>;
  /** The one conditional write that takes the decision while the change waits (an approval applies it too): true when written. */
  decide: (decision: ChangeDecision) => Promise<boolean>;
  /** The decision's audit, keyed by the change, so written once. */
  audit: (decision: ChangeDecision) => Promise<void>;
}

/** 409: the change was decided (or replaced by a later edit) before this decision. */
const alreadyDecided = (status: string) => new AppError('CHANGE_DECIDED', { status });

/** The record's last decision is this one: the same change, decision and operator (a repeat, or the sweep after a crash). */
const isThis = (last: ChangeState['last'], decision: ChangeDecision) =>
  !!last && last.id === decision.changeId && last.status === decision.status && String(last.decidedBy) === decision.operator.id;

function refusal(state: ChangeState | null, decision: ChangeDecision, target: DecisionTarget): AppError {
  if (!state) return new AppError('NOT_FOUND');
  return alreadyDecided(state.last?.id === decision.changeId ? state.last.status : target.replaced);
}

/** The money kind deciding changes on these targets (server/src/moneyKinds.ts lists them). */
export function changeDecisionKinds(targets: readonly DecisionTarget[]): OperationKind[] {
  const byName = new Map(targets.map((target) => [target.name, target]));
  const targetOf = (decision: ChangeDecision) => {
    const target = byName.get(decision.target);
    if (!target) throw new Error(`the change target ${decision.target} is not registered (server/src/moneyKinds.ts)`);
    return target;
  };
  return [
    {
      kind: CHANGE_DECISION,
      admit: async (operation) => {
        const decision = operation.data as ChangeDecision;
        const target = targetOf(decision);
        const before = await target.state(decision);
        if (isThis(before?.last ?? null, decision) || (before?.waiting?.id === decision.changeId && (await target.decide(decision))))
          return null;
        // another decision, or a later edit, came first (or this one, by a concurrent finish of the same operation)
        const after = await target.state(decision);
        return isThis(after?.last ?? null, decision) ? null : refusal(after, decision, target);
      },
      steps: [{ name: 'audit', run: (operation) => targetOf(operation.data as ChangeDecision).audit(operation.data as ChangeDecision) }],
    },
  ];
}

/**
 * Decides a waiting change: refused with nothing changed when it no longer waits (CHANGE_DECIDED, or NOT_FOUND), or when the
 * approver asked for it themselves or is not independent of who did. An approver's repeat of their own approval finishes it
 * (its audit, if a crash came first) and answers as the first did; a repeat of a rejection is told it was decided, as before.
 */
export async function decideChange(
  target: DecisionTarget,
  decision: Omit<ChangeDecision, 'target' | 'change'> & { record: string },
): Promise<void> {
  const state = await target.state({ ...decision, target: target.name, change: {} });
  if (!state) throw new AppError('NOT_FOUND');
  const waiting = state.waiting?.id === decision.changeId ? state.waiting : null;
  const repeat = decision.status === 'approved' && isThis(state.last, { ...decision, target: target.name, change: {} });
  if (!waiting && !repeat) throw refusal(state, { ...decision, target: target.name, change: {} }, target);
  if (waiting && decision.status === 'approved')
    await assertIndependentApprover(String(waiting.requestedBy), decision.operator.id, target.what);
  await runOperation({
    kind: CHANGE_DECISION,
    key: `${CHANGE_DECISION}:${target.name}:${decision.changeId}:${decision.status}:${decision.operator.id}`,
    refType: target.name,
    refId: decision.record,
    players: [],
    house: [],
    createdBy: objectId(decision.operator.id),
    // the change's contents as stored (the target's state reads the whole waiting change, or the last decision for a repeat)
    data: { ...decision, target: target.name, change: waiting ?? state.last ?? {} },
  });
}
