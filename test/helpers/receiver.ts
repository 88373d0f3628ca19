import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Behaviour = (res: ServerResponse, req: Received) => void;

/** A local webhook receiver that records every request and answers as told. */
export class Receiver {
  readonly received: Received[] = [];
  behaviour: Behaviour = (res) => res.writeHead(204).end();
  /** Connections accepted so far. */
  connections = 0;
  readonly #server: Server;
  readonly #sockets = new Set<import('node:net').Socket>();

  private constructor() {
    this.#server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d));
      req.on('end', () => {
        const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, at: Date.now() };
        this.received.push(r);
        this.behaviour(res, r);
      });
    });
    this.#server.on('connection', (s) => {
      this.connections += 1;
      this.#sockets.add(s);
      s.on('close', () => this.#sockets.delete(s));
    });
  }

  static async start(): Promise<Receiver> {
    const r = new Receiver();
    await new Promise<void>((resolve) => r.#server.listen(0, '127.0.0.1', resolve));
    return r;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Waits until `count` requests arrived (or fails after `ms`). */
  async waitFor(count: number, ms = 30_000): Promise<Received[]> {
    const deadline = Date.now() + ms;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`receiver got ${this.received.length} of ${count} requests`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.received;
  }

  /**
   * Waits until `count` requests to `path` arrived (or fails after `ms`). A browser sent to
   * this receiver also asks it for /favicon.ico, so counting every request is not enough.
   */
  async waitForPath(path: string, count = 1, ms = 30_000): Promise<Received[]> {
    const arrived = () => this.received.filter((r) => r.url === path);
    await eventually(async () => (arrived().length >= count ? true : undefined), ms, `${count} request(s) to ${path}`);
    return arrived();
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/**
 * Polls `fn` until it returns something other than undefined. The default deadline leaves room for a
 * machine kept busy by other work: only a failing wait ever takes it.
 */
export async function eventually<T>(fn: () => Promise<T | undefined>, ms = 30_000, label = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
