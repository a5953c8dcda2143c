/** How CongoDB's storage words an insert of an `_id` that exists, which it answers to an upsert with code 1 (InternalError). */
const CONGO_DUPLICATE_ID = /^Duplicate key error: _id /;

/**
 * The database's answer when a unique index refuses a write (a concurrent upsert inserted the document first): MongoDB's code
 * 11000 (DuplicateKey). CongoDB, the embedded database, answers an insert so, but an upsert (update, findAndModify, bulk)
 * that inserts an `_id` that exists with code 1 (InternalError), its generic code: recognised by its words too.
 */
export function isDuplicateKey(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 11000 || (code === 1 && typeof message === 'string' && CONGO_DUPLICATE_ID.test(message));
}

/**
 * Runs an upsert, and once more when a concurrent upsert inserted the same document first: real MongoDB refuses the
 * second insert on the unique index, and the retry then updates the document that now exists.
 */
export async function upsertWithRetry<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return upsert();
  }
}

/** Driver errors that mean the database could not be reached or did not answer in time (mongoose wraps some under its own names). */
const UNREACHABLE = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
  'MongoOperationTimeoutError',
]);
/**
 * Server answers of a database that is stopping, failing over or out of time: MaxTimeMSExpired, ExceededTimeLimit, ShutdownInProgress,
 * PrimarySteppedDown, NotWritablePrimary, InterruptedAtShutdown, InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk,
 * NotPrimaryOrSecondary.
 */
const UNAVAILABLE_CODES = new Set([50, 262, 91, 189, 10107, 11600, 11602, 13435, 13436]);

/**
 * Whether an error says the database is down, unreachable, hung or failing over, rather than that the request
 * was wrong: such a call is answered 503 with a retry hint. Mongoose's own "buffering timed out" is one of them.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause = error, depth = 0; typeof cause === 'object' && cause !== null && depth < 5; depth++) {
    const { name, code, message } = cause as { name?: unknown; code?: unknown; message?: unknown };
    if (typeof name === 'string' && UNREACHABLE.has(name)) return true;
    if (typeof code === 'number' && UNAVAILABLE_CODES.has(code)) return true;
    if (name === 'MongooseError' && typeof message === 'string' && message.includes('buffering timed out')) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
