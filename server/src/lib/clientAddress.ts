import { ipKeyGenerator } from 'express-rate-limit';

/** One host on IPv6 gets a whole /64 (2⁶⁴ addresses) to choose from: limits count the /64 as one address. */
const IPV6_PREFIX_BITS = 64;

/** The key a client address is counted under by every address-keyed limit: IPv4 as is, IPv6 by its /64. */
export function addressKey(ip: string): string {
  return ipKeyGenerator(ip, IPV6_PREFIX_BITS);
}
