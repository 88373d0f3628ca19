import type { LookupAddress } from 'node:dns';
import { Resolver as CaresResolver } from 'node:dns/promises';
import { isLocalName } from './network-policy.js';

/** Resolves a host name to every address it has. Injectable so tests can play DNS. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** A name that did not resolve: no such host, no answer in time, or no server reachable. */
export class HostNotFound extends Error {
  override name = 'HostNotFound';
  constructor(
    hostname: string,
    readonly code: string,
  ) {
    super(`${hostname} did not resolve (${code})`);
  }
}

const LOOPBACK: LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * Webhook host names go to DNS through c-ares (`dns.Resolver`), not getaddrinfo (`dns.lookup`).
 * A lookup holds one of the two threads libuv gives DNS until the system resolver gives up, and
 * a webhook's timeout cannot cancel it: a tenant whose names' servers never answer queued every
 * other tenant's lookups behind theirs, and their webhooks timed out. Here every query has its own
 * deadline (`timeoutMs`, doubled on the second try) and holds no thread.
 * Not read: /etc/hosts and the search domains. `localhost` names are loopback (RFC 6761).
 */
export function dnsResolver(options: { servers?: string[]; timeoutMs?: number; tries?: number } = {}): Resolver {
  const resolver = new CaresResolver({ timeout: options.timeoutMs ?? 1_500, tries: options.tries ?? 2 });
  if (options.servers) resolver.setServers(options.servers);
  return async (hostname) => {
    if (isLocalName(hostname)) return LOOPBACK;
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const failed = [v4, v6].find((r): r is PromiseRejectedResult => r.status === 'rejected');
    throw new HostNotFound(hostname, (failed?.reason as { code?: string } | undefined)?.code ?? 'ENODATA');
  };
}
