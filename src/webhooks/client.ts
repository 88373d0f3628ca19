import type { LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { isPublicAddress, literalAddress } from '../domain/network-policy.js';
import { dnsResolver, type Resolver } from './dns.js';

export class AddressRefused extends Error {
  override name = 'AddressRefused';
  constructor(
    message: string,
    /** Refused for what a host name resolved to, rather than for a literal address or the peer. */
    readonly byName = false,
  ) {
    super(message);
  }
}

export interface Attempt {
  status: number | null;
  /** The reason it failed, as the tenant sees it in the delivery log. */
  error: string | null;
  /** For the operator (log, CLI): where the tenant's reason would tell them about this network. */
  detail?: string;
  durationMs: number;
}

/**
 * A name that does not resolve and one that resolves to a non-public address read the same to
 * the tenant: otherwise the delivery log would tell a tenant which names exist inside this network.
 */
export const HOST_NOT_USABLE = 'host not found or not a public address';

export interface WebhookClientOptions {
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  resolver?: Resolver;
}

type LookupCallback = (err: Error | null, address?: string | LookupAddress[], family?: number) => void;

/**
 * The only way Assay makes an outbound request. Unless private networks are allowed:
 * every address a name resolves to must be public, the socket is pinned to the vetted
 * address (the resolver runs once, inside connect, so DNS rebinding has no second look),
 * literal IPs are vetted before connecting, and the connected peer is checked again.
 * No redirects are followed and at most `maxResponseBytes` of the answer are read.
 */
export class WebhookClient {
  readonly #agent: Agent;
  readonly #options: WebhookClientOptions;

  constructor(options: WebhookClientOptions) {
    this.#options = options;
    const resolver = options.resolver ?? dnsResolver();
    const guard = !options.allowPrivateNetworks;

    const lookup = (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback): void => {
      resolver(hostname)
        .then((addresses) => {
          if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
          const refused = guard ? addresses.find((a) => !isPublicAddress(a.address)) : undefined;
          if (refused) throw new AddressRefused(`${hostname} resolves to a non-public address`, true);
          const pinned = addresses[0]!;
          if (lookupOptions.all) callback(null, [pinned]);
          else callback(null, pinned.address, pinned.family);
        })
        .catch((err: Error) => callback(err));
    };

    const connector = buildConnector({ timeout: options.timeoutMs, lookup } as buildConnector.BuildOptions);
    this.#agent = new Agent({
      connect: (opts, callback) => {
        const literal = literalAddress(opts.hostname);
        if (guard && literal !== undefined && !isPublicAddress(literal)) {
          callback(new AddressRefused('the webhook host is not a public address'), null);
          return;
        }
        connector(opts, (err, socket) => {
          if (err || !socket) return callback(err ?? new Error('no socket'), null);
          const remote = (socket as Socket).remoteAddress;
          if (guard && (!remote || !isPublicAddress(remote))) {
            socket.destroy();
            return callback(new AddressRefused('the connected peer is not a public address'), null);
          }
          callback(null, socket);
        });
      },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    });
  }

  /** One POST. Never throws: every outcome, good or bad, comes back as an Attempt. */
  async post(url: string, body: string, authorization: string | undefined, extraHeaders: Record<string, string> = {}): Promise<Attempt> {
    const started = performance.now();
    const duration = () => Math.round(performance.now() - started);
    const headers: Record<string, string> = { ...extraHeaders, 'content-type': 'application/json', 'user-agent': 'Assay-Webhook/1.0' };
    if (authorization) headers.authorization = authorization;
    try {
      const res = await request(url, {
        method: 'POST',
        body,
        headers,
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      await readCapped(res.body, this.#options.maxResponseBytes);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return { status: res.statusCode, error: ok ? null : `HTTP ${res.statusCode}`, durationMs: duration() };
    } catch (error) {
      const { reason, byName } = describe(error, this.#options.timeoutMs);
      if (!byName) return { status: null, error: reason, durationMs: duration() };
      return { status: null, error: HOST_NOT_USABLE, detail: reason, durationMs: duration() };
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

/** Reads at most `max` bytes of a response, then lets the rest go. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<void> {
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.length;
    if (seen >= max) {
      body.destroy();
      return;
    }
  }
}

/**
 * Why an attempt failed, for the operator, and whether it failed on the host name: it did not
 * resolve, or resolved only to refused addresses (the tenant then sees HOST_NOT_USABLE).
 */
function describe(error: unknown, timeoutMs: number): { reason: string; byName: boolean } {
  const other = (reason: string) => ({ reason, byName: false });
  let e = error as (Error & { code?: string; cause?: unknown }) | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (e instanceof AddressRefused) return { reason: `refused: ${e.message}`, byName: e.byName };
    if (e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
      return other(`timed out after ${timeoutMs} ms`);
    }
    if (e.code === 'ECONNREFUSED') return other('connection refused');
    if (e.name === 'HostNotFound' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return { reason: `host not found (${e.code})`, byName: true };
    if (e.code === 'ECONNRESET' || e.code === 'UND_ERR_SOCKET') return other('connection reset by the receiver');
    if (!e.cause) return other(e.code ? `${e.code}: ${e.message}` : e.message);
    e = e.cause as typeof e;
  }
  return other('request failed');
}
