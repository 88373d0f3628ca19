import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { Webhook } from 'standardwebhooks';
import { parseBasic } from '../security/basic-auth.js';
import { listenCommand, listenOn, listeningUrl, portOption, untilStopped } from './listen.js';
import { CliError } from './shared.js';

const MAX_BODY = 64 * 1024;

export interface Delivery {
  receivedAt: string;
  method: string;
  path: string;
  from: string;
  /** 'matched', 'mismatched' or 'missing' when --username was given; 'none' or 'unexpected' otherwise. */
  credentials: 'matched' | 'mismatched' | 'missing' | 'none' | 'unexpected';
  /** The start of the Basic username that came (see `prefixOf`), never all of it. */
  username: string | null;
  /** 'verified' or 'invalid' with --secret; 'unsigned' when no signature came; 'not checked' otherwise. */
  signature: 'verified' | 'invalid' | 'unsigned' | 'not checked';
  webhookId: string | null;
  body: string;
}

/**
 * The start of a credential, for the screen: at most 6 characters and at most half of it, then
 * "…". A Basic username may be a secret itself (a Greenhouse API key is sent as one).
 */
export function prefixOf(credential: string): string {
  return `${credential.slice(0, Math.min(6, Math.floor(credential.length / 2)))}…`;
}

const same = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

function credentials(req: IncomingMessage, expected: { username?: string; password?: string }): Pick<Delivery, 'credentials' | 'username'> {
  const given = parseBasic(req.headers.authorization);
  const username = given ? prefixOf(given.username) : null;
  if (expected.username === undefined) return { credentials: given ? 'unexpected' : 'none', username };
  if (!given) return { credentials: 'missing', username };
  const ok = same(given.username, expected.username) && same(given.password, expected.password ?? '');
  return { credentials: ok ? 'matched' : 'mismatched', username };
}

function signature(req: IncomingMessage, body: string, secret: string | undefined): Delivery['signature'] {
  if (!req.headers['webhook-signature']) return 'unsigned';
  if (!secret) return 'not checked';
  const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(req.headers[h] ?? '')]));
  try {
    new Webhook(secret).verify(body, headers);
    return 'verified';
  } catch {
    return 'invalid';
  }
}

function describe(d: Delivery): string {
  const who =
    d.credentials === 'matched'
      ? `Basic credentials matched (${d.username})`
      : d.credentials === 'mismatched'
        ? `Basic credentials did NOT match (user "${d.username}")`
        : d.credentials === 'missing'
          ? 'no Basic credentials, though --username expects them'
          : d.credentials === 'unexpected'
            ? `Basic credentials sent (user "${d.username}"), none expected`
            : 'no credentials (none expected)';
  return [
    `${d.receivedAt} ${d.method} ${d.path} from ${d.from}`,
    `  ${who}`,
    `  signature: ${d.signature}${d.webhookId ? ` (${d.webhookId})` : ''}`,
    `  body: ${d.body}`,
    '  answered 200',
    '',
  ].join('\n');
}

/** A receiver for trying webhooks locally: prints each delivery and answers 200. */
export function webhookListenCommand(webhook: Command): void {
  listenCommand(webhook, 'receive webhooks on this machine and print each one (a development aid; answers 200)', 4000)
    .option('--username <username>', 'the WebhookUsername to expect')
    .option('--password <password>', 'the WebhookPassword to expect')
    .option('--secret <whsec>', "the portal's signing secret, to verify Standard Webhooks signatures")
    .action(async (opts: { port: string; host: string; username?: string; password?: string; secret?: string; json?: boolean }) => {
      const port = portOption(opts.port);
      if (opts.password !== undefined && opts.username === undefined) throw new CliError('--password needs --username');
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY) chunks.push(chunk);
        });
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          const delivery: Delivery = {
            receivedAt: new Date().toISOString(),
            method: req.method ?? '',
            path: req.url ?? '',
            from: req.socket.remoteAddress ?? '',
            ...credentials(req, opts),
            signature: signature(req, body, opts.secret),
            webhookId: typeof req.headers['webhook-id'] === 'string' ? req.headers['webhook-id'] : null,
            body,
          };
          process.stdout.write(opts.json ? JSON.stringify({ delivery }) + '\n' : describe(delivery));
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
        });
      });
      await listenOn(server, port, opts.host);
      const url = `${listeningUrl('http', server.address() as AddressInfo)}/`;
      process.stdout.write(
        opts.json
          ? JSON.stringify({ listening: url }) + '\n'
          : [
              `Listening on ${url} (Ctrl-C stops).`,
              `Use it as WebhookUrl. Assay delivers to this machine only when started with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (development only).`,
              '',
            ].join('\n'),
      );
      await untilStopped((done) => {
        server.close(() => done());
        // Assay's client keeps its connection open for the next delivery.
        server.closeAllConnections();
      });
    });
}
