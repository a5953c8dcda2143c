/** MongoDB's answer when a unique index refuses a write (a concurrent upsert inserted the document first). */
export function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: number }).code === 11000;
}
