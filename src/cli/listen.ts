import type { Command } from 'commander';
import type { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { CliError } from './shared.js';

/**
 * What the development listeners (`webhook listen`, `mail listen`) share: reading --port, opening
 * the socket with a one-line refusal, and running until Ctrl-C.
 */

/** `<parent> listen` with the options every listener takes: --port (its default), --host (loopback) and --json. */
export function listenCommand(parent: Command, description: string, defaultPort: number): Command {
  return parent
    .command('listen')
    .description(description)
    .option('--port <port>', 'port to listen on', String(defaultPort))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--json', 'print one JSON object per line');
}

export function portOption(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError('--port must be a port number');
  return port;
}

export interface Listenable extends EventEmitter {
  listen(port: number, host: string, callback: () => void): unknown;
}

/**
 * Listens on host:port, or fails with `Cannot listen on host:port: EADDRINUSE` (a CliError: one
 * line, exit 1). `server` emits the socket's errors: a node:http server, or smtp-server's, which
 * re-emits them as its own.
 */
export async function listenOn(server: Listenable, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(new CliError(`Cannot listen on ${host}:${port}: ${error.code ?? error.message}`));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
}

/** The URL a listener prints: scheme://address:port, IPv6 in brackets. */
export function listeningUrl(scheme: string, address: AddressInfo): string {
  return `${scheme}://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

/** Resolves after `stop` has run on the first SIGINT or SIGTERM and called back. */
export function untilStopped(stop: (done: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const once = () => stop(resolve);
    process.once('SIGINT', once);
    process.once('SIGTERM', once);
  });
}
