/**
 * Fault points: named places between two writes of a money operation. They do nothing unless a test turns
 * them on, so the crash tests can stop the process exactly there:
 * - `GIFT_FAULT_POINTS=ledger:after-apply,…` (parsed by env.ts, armed once at start, never in production) kills
 *   the process with SIGKILL the first time it reaches a listed point, as `kill -9` would;
 * - in-process tests call `onFault(name => …)` and throw, which leaves the same half-finished state.
 */
import { plantMutation } from './mutations';

/** In-process tests: the point reached, and the kind of operation for the engine's points (`ledger:after-step` of `stake-open`). */
type FaultHandler = (point: string, kind?: string, step?: string) => void | Promise<void>;

let handler: FaultHandler | null = null;
let killAt: ReadonlySet<string> = new Set();

/**
 * At start: the points the environment lists become points where the process kills itself, and the mutation it names
 * (lib/mutations.ts) is planted (neither in production).
 */
export function armFaultPoints(
  env: { NODE_ENV: string; GIFT_FAULT_POINTS?: readonly string[] } & Parameters<typeof plantMutation>[0],
): void {
  killAt = new Set(env.NODE_ENV === 'production' ? [] : (env.GIFT_FAULT_POINTS ?? []));
  plantMutation(env);
}

/**
 * Every point the code has, in the order the crash test walks through them: an operation's prerequisites pass
 * only through points earlier in the list (a gift posts through the ledger's two; a rejection needs a request).
 */
export const FAULT_POINTS = [
  'ledger:after-record',
  'ledger:after-apply',
  // after each follow-up step of a kind that has steps (a stake opened, a stake claimed)
  'ledger:after-step',
] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

/**
 * Points where in-process tests interleave a concurrent caller (never killed at by the crash test): a refusal
 * of a debit the balance did not cover, just before and just after it removes the operation.
 */
type RacePoint = 'ledger:refusing' | 'ledger:refused';

/** Marks a point between two writes. */
export async function faultPoint(
  point: FaultPoint | RacePoint,
  /** The engine's points name the kind of operation too: `ledger:after-step:stake-open` kills at that kind's alone. */
  kind?: string,
  /** After a step, its name too: `ledger:after-step:payout-batch:send` kills after that one step of that kind alone. */
  step?: string,
): Promise<void> {
  const names = [point, ...(kind ? [`${point}:${kind}`] : []), ...(kind && step ? [`${point}:${kind}:${step}`] : [])];
  const armed = names.find((name) => killAt.has(name));
  if (armed) {
    process.stderr.write(`fault point ${armed}: killing the process\n`);
    process.kill(process.pid, 'SIGKILL');
  }
  await handler?.(point, kind, step);
}

/** The engine's points, each also armed for one kind alone (`<point>:<kind>`), so a crash test reaches every kind's. */
export const ENGINE_FAULT_POINTS = ['ledger:after-record', 'ledger:after-apply', 'ledger:after-step'] as const;

/** Tests only: run `next` at every fault point (throw to stop the operation there); `null` turns it off. */
export function onFault(next: FaultHandler | null): void {
  handler = next;
}
