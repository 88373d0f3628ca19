import type { LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { NetConnectOpts, Socket } from 'node:net';
import { isPublicAddress, literalAddress } from './network-policy.js';
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
  /** Opens a plain-HTTP connection (net.createConnection); a test substitutes one whose peer differs from the vetted address. */
  connect?: (options: NetConnectOpts) => Socket;
}

type LookupCallback = (err: Error | null, address?: string | LookupAddress[], family?: number) => void;

// An idle connection to a receiver is closed after this long.
const IDLE_MS = 4_000;

/**
 * The only way Assay makes an outbound request, on Node's own HTTP client. Unless private
 * networks are allowed: every address a name resolves to must be public, the socket is pinned to
 * the vetted address (the resolver runs once, inside connect, so DNS rebinding has no second
 * look), literal IPs are vetted before connecting, and the connected peer is checked again.
 * No redirects are followed and at most `maxResponseBytes` of the answer are read. The whole
 * attempt, connect to last byte, ends at `timeoutMs`.
 */
export class WebhookClient {
  readonly #options: WebhookClientOptions;
  readonly #guard: boolean;
  readonly #lookup: (hostname: string, options: { all?: boolean }, callback: LookupCallback) => void;
  readonly #http = new HttpAgent({ keepAlive: true, timeout: IDLE_MS });
  readonly #https = new HttpsAgent({ keepAlive: true, timeout: IDLE_MS });

  constructor(options: WebhookClientOptions) {
    this.#options = options;
    const resolver = options.resolver ?? dnsResolver();
    const guard = (this.#guard = !options.allowPrivateNetworks);
    const connect = options.connect;
    if (connect) this.#http.createConnection = (connectOptions) => connect(connectOptions as NetConnectOpts);
    this.#lookup = (hostname, lookupOptions, callback) => {
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
  }

  /** One POST of a JSON body. Never throws: every outcome, good or bad, comes back as an Attempt. */
  post(url: string, body: string, authorization: string | undefined, extraHeaders: Record<string, string> = {}): Promise<Attempt> {
    return this.#attempt('POST', url, body, authorization, { ...extraHeaders, 'content-type': 'application/json' });
  }

  /** One PATCH with no body (an ATS partner's "completed" call). Never throws, as `post`. */
  patch(url: string, authorization: string | undefined): Promise<Attempt> {
    return this.#attempt('PATCH', url, '', authorization, {});
  }

  async #attempt(
    method: 'POST' | 'PATCH',
    url: string,
    body: string,
    authorization: string | undefined,
    extraHeaders: Record<string, string>,
  ): Promise<Attempt> {
    const started = performance.now();
    const duration = () => Math.round(performance.now() - started);
    const headers: Record<string, string> = { ...extraHeaders, 'user-agent': 'Assay-Webhook/1.0' };
    if (authorization) headers.authorization = authorization;
    try {
      const status = await this.#send(method, new URL(url), body, headers);
      const ok = status >= 200 && status < 300;
      return { status, error: ok ? null : `HTTP ${status}`, durationMs: duration() };
    } catch (error) {
      const { reason, byName } = describe(error, this.#options.timeoutMs);
      if (!byName) return { status: null, error: reason, durationMs: duration() };
      return { status: null, error: HOST_NOT_USABLE, detail: reason, durationMs: duration() };
    }
  }

  /** Resolves with the status once the answer has been read (up to the cap), or rejects. */
  #send(method: 'POST' | 'PATCH', url: URL, body: string, headers: Record<string, string>): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      const https = url.protocol === 'https:';
      if (!https && url.protocol !== 'http:') throw new Error(`unsupported protocol ${url.protocol}`);
      const literal = literalAddress(url.hostname);
      if (this.#guard && literal !== undefined && !isPublicAddress(literal)) throw new AddressRefused('the webhook host is not a public address');
      const options: RequestOptions = {
        method,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: https ? this.#https : this.#http,
        lookup: this.#lookup as RequestOptions['lookup'],
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      };
      const req = (https ? httpsRequest : httpRequest)(url, options, (res) => {
        readCapped(res, this.#options.maxResponseBytes).then(() => resolve(res.statusCode ?? 0), reject);
      });
      req.on('error', reject);
      // The peer is checked once per connection, when it connects. A kept connection was checked
      // then and connects no more: a listener added for each request on it would pile up.
      req.on('socket', (socket: Socket) => {
        if (socket.connecting) socket.once('connect', () => this.#checkPeer(socket));
      });
      req.end(body);
    });
  }

  #checkPeer(socket: Socket): void {
    if (this.#guard && (!socket.remoteAddress || !isPublicAddress(socket.remoteAddress)))
      socket.destroy(new AddressRefused('the connected peer is not a public address'));
  }

  async close(): Promise<void> {
    this.#http.destroy();
    this.#https.destroy();
  }
}

/** Reads at most `max` bytes of a response, then lets the rest go. */
function readCapped(res: IncomingMessage, max: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let seen = 0;
    res.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen >= max) {
        res.destroy();
        resolve();
      }
    });
    res.on('end', () => resolve());
    res.on('error', (err) => (seen >= max ? resolve() : reject(err)));
    res.on('close', () => (res.complete || seen >= max ? resolve() : reject(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }))));
  });
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
    // Before the socket's codes: a DNS server that refuses fails the name with ECONNREFUSED.
    if (e.name === 'HostNotFound' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return { reason: `host not found (${e.code})`, byName: true };
    if (e.name === 'TimeoutError') return other(`timed out after ${timeoutMs} ms`);
    if (e.code === 'ECONNREFUSED') return other('connection refused');
    if (e.code === 'ECONNRESET') return other('connection reset by the receiver');
    if (!e.cause) return other(e.code ? `${e.code}: ${e.message}` : e.message);
    e = e.cause as typeof e;
  }
  return other('request failed');
}
