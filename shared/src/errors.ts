/**
 * Error codes the server sends to clients. Each has the English message players see
 * (from the spec where it has one); clients translate by code.
 */
export const ERROR_MESSAGES = {
  BAD_INPUT: 'Invalid input',
  UNAUTHORIZED: 'Please sign in again',
  INVALID_CREDENTIALS: 'Invalid username or password',
  FORBIDDEN: 'You do not have permission to do this',
  NOT_FOUND: 'Not found',
  IN_USE: 'Cannot delete: it is still used by {uses}',
  CANNOT_DELETE: 'Cannot delete: {reason}',
  INCORRECT_CODE: 'Incorrect code',
  CODE_EXPIRED: 'This code has expired, ask for a new one',
  TOO_MANY_ATTEMPTS: 'Too many attempts, ask for a new code',
  STAR_MISSIONS_FIRST: 'You must done all ⭐ tasks',
  NOT_JOINED: "You haven't joined yet",
  TOO_EARLY: 'Please wait a little before claiming',
  MISSION_NOT_STARTED: 'Tap Go first',
  ALREADY_DONE: 'Already done',
  MISSION_FULL: 'This mission is full: every place has been taken',
  MISSION_ENDED: 'This mission has ended',
  ALREADY_PENDING: 'Waiting for review',
  MISSION_NOT_PENDING: 'Only a pending mission can be approved or rejected; this one is {status}',
  MINING_ACTIVE: 'Mining is already running',
  NOTHING_TO_MOVE: 'Nothing to move',
  INSUFFICIENT_BALANCE: 'Not enough balance',
  BALANCE_LIMIT: 'This would take the balance past the largest amount it can hold',
  STAKING_DISABLED: 'Staking is not available for this coin',
  STAKE_LOCKED: 'This stake is still locked',
  STAKE_CLAIMED: 'This stake has already been claimed',
  AMOUNT_BELOW_MINIMUM: 'Amount is below the minimum',
  AMOUNT_ABOVE_MAXIMUM: 'Amount is above the maximum',
  WALLET_REQUIRED: 'Please connect your TON wallet to continue.',
  WALLET_TAKEN: 'This wallet is linked to another account',
  TON_PROOF_INVALID: 'Wallet proof is invalid',
  WITHDRAW_MINIMUM: 'You must have at least {amount} {symbol} to make a withdrawal.',
  WITHDRAW_DISABLED: 'Withdrawals are not available for this coin',
  WITHDRAWAL_PROCESSED: 'This withdrawal has already been processed',
  CHAIN_UNAVAILABLE: 'The TON network could not be reached; the withdrawal stays as it was. Try again in a minute',
  RATE_LIMITED: 'Too many requests, try again later',
  NOT_CONFIGURED: 'This feature is not configured yet',
  UNAVAILABLE: 'The service is briefly unavailable, try again in a few seconds',
  BROADCAST_STATE: 'This broadcast is {status}: it cannot be {action}',
  BOT_MISSING: 'Save the bot token in App Config first: the bot sends broadcasts',
  NO_TELEGRAM_ID: 'Add your Telegram id to your account first (and press Start in the bot)',
  TELEGRAM_REFUSED: 'Telegram refused the message: {reason}',
  DEBT_OWED: '{amount} {symbol} was taken back ({reason}) and is still owed: withdrawals open once it is settled',
  GIFT_DECIDED: 'This gift was already {status}',
  ACCOUNT_FROZEN: 'Your account is frozen: {reason}',
  ACCOUNT_BANNED: 'Your account is blocked: {reason}',
  INTERNAL: 'Something went wrong',
} as const;
export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** Fills '{name}' placeholders of a message. */
export function formatMessage(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}
