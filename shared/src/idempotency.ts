/**
 * A fresh idempotency key for one intent of a player or an operator (a tap on Withdraw, a Stake, a balance
 * adjustment): the request and every retry of it carry the same key, so the server applies it once. 128 random bits
 * as hex, from the Web Crypto API (browsers, also on plain http, and Node).
 */
export function newIdempotencyKey(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
