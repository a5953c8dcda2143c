import { ERROR_MESSAGES, formatMessage, type ErrorCode } from '@gift/shared';

/** Seconds a client waits before retrying a call the database could not serve: about the time the driver takes to notice it is back. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** How each error code maps to HTTP; the tRPC and REST doors both read this one table. */
const HTTP_STATUS: Record<ErrorCode, number> = {
  BAD_INPUT: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  TOTP_INVALID: 401,
  TOTP_ENROLMENT_REQUIRED: 403,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  IN_USE: 409,
  CANNOT_DELETE: 405,
  INCORRECT_CODE: 400,
  CODE_EXPIRED: 400,
  TOO_MANY_ATTEMPTS: 429,
  STAR_MISSIONS_FIRST: 409,
  NOT_JOINED: 409,
  NOT_BOOSTED: 409,
  EMOJI_STATUS_NOT_SET: 409,
  HOME_SCREEN_NOT_ADDED: 409,
  TELEGRAM_CHECK_FAILED: 503,
  TOO_EARLY: 409,
  MISSION_NOT_STARTED: 409,
  ALREADY_DONE: 409,
  MISSION_FULL: 409,
  MISSION_ENDED: 409,
  ALREADY_PENDING: 409,
  NOT_APPEALABLE: 409,
  ALREADY_APPEALED: 409,
  ALREADY_ANSWERED: 409,
  OFFER_OFF_SALE: 409,
  PURCHASE_NOT_REFUNDABLE: 409,
  STARS_REFUND_REFUSED: 502,
  MISSION_NOT_PENDING: 409,
  CLAIM_LOCKED: 409,
  MINING_ACTIVE: 409,
  NOTHING_TO_MOVE: 409,
  INSUFFICIENT_BALANCE: 409,
  BALANCE_LIMIT: 409,
  STAKING_DISABLED: 409,
  STAKE_LOCKED: 409,
  STAKE_CLAIMED: 409,
  AMOUNT_BELOW_MINIMUM: 400,
  AMOUNT_ABOVE_MAXIMUM: 400,
  WALLET_REQUIRED: 409,
  WALLET_TAKEN: 409,
  TON_PROOF_INVALID: 400,
  WITHDRAW_MINIMUM: 409,
  WITHDRAW_DISABLED: 409,
  WITHDRAWAL_PROCESSED: 409,
  GIFT_DECIDED: 409,
  CHANGE_DECIDED: 409,
  RECORD_CHANGED: 409,
  RISK_HOLD: 409,
  DEBT_OWED: 409,
  ACCOUNT_FROZEN: 403,
  ACCOUNT_BANNED: 403,
  CHAIN_UNAVAILABLE: 503,
  RATE_LIMITED: 429,
  NOT_CONFIGURED: 503,
  UNAVAILABLE: 503,
  BROADCAST_STATE: 409,
  BOT_MISSING: 409,
  NO_TELEGRAM_ID: 409,
  TELEGRAM_REFUSED: 502,
  INTERNAL: 500,
};

/** The one error domain code throws: a code, a message a player can read, and optional params/field errors. */
export class AppError extends Error {
  /** Seconds after which the same call may succeed; both doors send it as `Retry-After`. */
  retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(formatMessage(ERROR_MESSAGES[code], params));
    this.name = 'AppError';
    if (code === 'UNAVAILABLE') this.retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS;
  }

  get status(): number {
    return HTTP_STATUS[this.code];
  }
}

/** A player's own money move refused because they are frozen or banned (the ledger's hold): what is owed stays owed. */
export function isHold(error: unknown): boolean {
  return error instanceof AppError && (error.code === 'ACCOUNT_FROZEN' || error.code === 'ACCOUNT_BANNED');
}

export function badInput(fieldErrors: Record<string, string>, message: string = ERROR_MESSAGES.BAD_INPUT): AppError {
  const error = new AppError('BAD_INPUT', {}, fieldErrors);
  error.message = message;
  return error;
}

/** 403 with a message saying what the operator may not do. */
export function forbidden(message: string): AppError {
  const error = new AppError('FORBIDDEN');
  error.message = message;
  return error;
}

/** 429 with the seconds until the limit's window ends. */
export function tooManyRequests(retryAfterSeconds: number): AppError {
  const error = new AppError('RATE_LIMITED');
  error.retryAfterSeconds = retryAfterSeconds;
  return error;
}

/** Seconds a player waits before asking Telegram again after it could not answer a membership check. */
const TELEGRAM_RETRY_AFTER_SECONDS = 60;

/**
 * 503 for a membership check Telegram could not answer (unreachable, or the mission's chat or bot set up wrong), keeping
 * Telegram's error for the operators' log; the player reads that it could not be checked, not that something broke.
 */
export function telegramCheckFailed(cause: unknown): AppError {
  const error = new AppError('TELEGRAM_CHECK_FAILED');
  error.retryAfterSeconds = TELEGRAM_RETRY_AFTER_SECONDS;
  error.cause = cause;
  return error;
}

/** 503 for a call the database could not serve in time (down, unreachable or hung), keeping the driver's error for the log. */
export function databaseUnavailable(cause: unknown): AppError {
  const error = new AppError('UNAVAILABLE');
  error.cause = cause;
  return error;
}
