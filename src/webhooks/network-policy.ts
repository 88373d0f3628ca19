import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * Only globally routable unicast addresses are fair game for webhooks. ipaddr.js names every
 * special-purpose range (loopback, RFC 1918, link-local and cloud metadata, CGNAT, multicast,
 * reserved, ULA, IPv4-mapped, NAT64, 6to4, Teredo, ...); anything it does not call "unicast"
 * is refused, including the IPv6 forms that embed an IPv4 address.
 */
export function isPublicAddress(address: string): boolean {
  // net.isIP accepts only canonical dotted-quad and IPv6 forms; ipaddr.js would also take "1.2.3".
  const family = isIP(address);
  if (family === 0) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.range() !== 'unicast') return false;
  // ipaddr.js calls the deprecated IPv4-compatible forms (::127.0.0.1, ::7f00:1) "unicast" too.
  // Only global unicast (2000::/3) is public IPv6.
  return family === 4 || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST);
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/** The IP address a URL host names literally, without brackets; undefined for a DNS name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** Names that resolve to this machine by definition (RFC 6761), whatever DNS says. */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
