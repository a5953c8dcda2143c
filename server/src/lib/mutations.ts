/**
 * Mutation runs of the crash test (`npm run crash-test -- --mutation <name>`): a known bug planted on purpose, to see
 * the crash test catch it. `GIFT_MUTATION=<name>` (parsed by env.ts, planted once at start with the fault points) turns
 * one on; in production none is ever planted. Each hook is one `if (planted('…'))` at the place the bug would be.
 */
export const MUTATIONS = [
  /** The recovery sweep no longer finishes (refunds) rejected withdrawals: only a retry of the decision would. */
  'sweep-skips-refund',
  /** The ledger's idempotency key guard removed: the same key may change a balance twice. */
  'key-guard-off',
  /** A rejected withdrawal's refund posted twice, under two keys. */
  'refund-twice',
  /** A stake's debit and its record as two unguarded writes: the debit under a key of its own, then the record. */
  'postings-outside-engine',
  /** The engine's sweep marks an operation it finishes done without running its kind's steps left (a call or a retry runs them). */
  'sweep-skips-step',
] as const;
type Mutation = (typeof MUTATIONS)[number];

let active: Mutation | null = null;

/** At start: the mutation the environment names is planted (none in production). */
export function plantMutation(env: { NODE_ENV: string; GIFT_MUTATION?: Mutation }): void {
  active = env.NODE_ENV === 'production' ? null : (env.GIFT_MUTATION ?? null);
}

/** Whether this planted bug is on: false unless a mutation run planted exactly it. */
export function planted(mutation: Mutation): boolean {
  return active === mutation;
}
