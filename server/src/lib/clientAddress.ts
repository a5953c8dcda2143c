import { createHash } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { ipKeyGenerator } from 'express-rate-limit';

/** One host on IPv6 gets a whole /64 (2⁶⁴ addresses) to choose from: limits count the /64 as one address. */
const IPV6_PREFIX_BITS = 64;

/** The key a client address is counted under by every address-keyed limit: IPv4 as is, IPv6 by its /64. */
export function addressKey(ip: string): string {
  return ipKeyGenerator(ip, IPV6_PREFIX_BITS);
}

/**
 * The network a client came from, for the risk score's "many players from one network": the IPv4 /24 or the IPv6 /64,
 * kept as a short hash, so players can be grouped by it without the server storing where anyone was.
 */
export function networkKey(ip: string): string {
  const plain = ip.replace(/^::ffff:/i, '');
  const prefix = isIPv4(plain) ? `${plain.split('.').slice(0, 3).join('.')}.0/24` : ipKeyGenerator(plain, IPV6_PREFIX_BITS);
  return createHash('sha256').update(prefix).digest('base64url').slice(0, 12);
}
