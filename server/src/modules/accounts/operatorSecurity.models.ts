import { model, Schema } from 'mongoose';

/** How long a console session lasts from sign-in: its token expires then too. */
export const SESSION_HOURS = 12;
/** Sign-in attempts are kept this long (a TTL index removes older ones), and an account's page shows its latest ones. */
const SIGN_IN_HISTORY_DAYS = 90;

/** What came of one sign-in attempt; the password and the code tried are never kept. */
const SIGN_IN_OUTCOMES = [
  'success',
  /** The right password of an account with two-step sign-in: the code was asked for. */
  'code-required',
  'wrong-password',
  /** A wrong two-step code, or one already used. */
  'wrong-code',
  /** The right password of a disabled account. */
  'disabled',
  /** Refused before the password was looked at: too many failed attempts from this address. */
  'rate-limited',
] as const;
export type SignInOutcome = (typeof SIGN_IN_OUTCOMES)[number];

/**
 * One console sign-in: its token names it (`sid`), so it can be signed out alone. `lastSeenAt` is moved on at most once a minute,
 * by the token check; a session of an earlier `tokenVersion` than its account's was ended with all the others.
 */
const operatorSessionSchema = new Schema(
  {
    account: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    tokenVersion: { type: Number, required: true },
    ip: { type: String, default: '' },
    userAgent: { type: String, default: '' },
    createdAt: { type: Date, required: true },
    lastSeenAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    revokedAt: { type: Date, default: null },
    /** The operator who signed it out (the account itself, or another with the accounts permission). */
    revokedBy: { type: Schema.Types.ObjectId, ref: 'Account', default: null },
  },
  { versionKey: false },
);
operatorSessionSchema.index({ account: 1, createdAt: -1 });
// gone a day after it ended: the list of an account's sessions stays short
operatorSessionSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 24 * 3600 });

export const OperatorSessionModel = model('OperatorSession', operatorSessionSchema);

/** One attempt to sign in to an existing account: when, from where, with what browser, and what came of it. */
const signInAttemptSchema = new Schema(
  {
    account: { type: Schema.Types.ObjectId, ref: 'Account', required: true },
    at: { type: Date, required: true },
    ip: { type: String, default: '' },
    userAgent: { type: String, default: '' },
    outcome: { type: String, enum: SIGN_IN_OUTCOMES, required: true },
  },
  { versionKey: false },
);
signInAttemptSchema.index({ account: 1, at: -1 });
signInAttemptSchema.index({ at: 1 }, { expireAfterSeconds: SIGN_IN_HISTORY_DAYS * 24 * 3600 });

export const SignInAttemptModel = model('SignInAttempt', signInAttemptSchema);
