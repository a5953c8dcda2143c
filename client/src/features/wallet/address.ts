/** A TON address as wallets show it in a row: first 4 and last 4 characters around an ellipsis. */
export function shortAddress(address: string): string {
  return address.length <= 9 ? address : `${address.slice(0, 4)}…${address.slice(-4)}`;
}
