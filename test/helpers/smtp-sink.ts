import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import { ROOT } from '../../src/platform/paths.js';

// The webhook tests' self-signed certificate for localhost and 127.0.0.1; the server trusts it through SMTP_CA_FILE.
const TLS_DIR = join(ROOT, 'test', 'webhooks', 'tls');
export const SINK_CA_FILE = join(TLS_DIR, 'localhost-cert.pem');

export interface Caught {
  /** MAIL FROM and RCPT TO as the server was told them: the envelope, not the headers. */
  mailFrom: string;
  rcptTo: string[];
  /** Whether the session had switched to TLS (STARTTLS) before the message. */
  secure: boolean;
  raw: string;
  parsed: ParsedMail;
}

/** What the sink answers a recipient with; undefined accepts. */
export type Refusal = (rcpt: string) => { code: number; message: string } | undefined;

/**
 * A real SMTP server over TCP in this process (smtp-server), offering STARTTLS with the test
 * certificate, keeping every message it accepts parsed with mailparser. It can be stopped and
 * started again on the same port (the relay down and back), told to refuse recipients, and made
 * slow: to greet a new connection, or to answer a message's end of data.
 */
export class SmtpSink {
  readonly caught: Caught[] = [];
  refuse: Refusal = () => undefined;
  /** How long a new connection waits for the greeting (220), as a slow relay makes it wait. */
  greetingDelayMs = 0;
  /** How long the answer to a message's end of data waits; the message counts as caught before it. */
  dataDelayMs = 0;
  /** Connections opened, counted as they arrive (before the greeting). */
  connections = 0;
  /** Every RCPT TO address the sink was given, refused or not: what reached the envelope. */
  readonly rcptTo: string[] = [];
  #server: SMTPServer | undefined;
  #port = 0;

  static async start(): Promise<SmtpSink> {
    const sink = new SmtpSink();
    await sink.listen();
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.#port}`;
  }

  get port(): number {
    return this.#port;
  }

  async listen(): Promise<void> {
    const server = new SMTPServer({
      key: readFileSync(join(TLS_DIR, 'localhost-key.pem')),
      cert: readFileSync(join(TLS_DIR, 'localhost-cert.pem')),
      authOptional: true,
      disableReverseLookup: true,
      logger: false,
      onConnect: (_session, callback) => {
        this.connections += 1;
        const delay = this.greetingDelayMs;
        if (delay > 0) setTimeout(() => callback(), delay);
        else callback();
      },
      onRcptTo: (address, _session, callback) => {
        this.rcptTo.push(address.address);
        const r = this.refuse(address.address);
        if (!r) return callback();
        callback(Object.assign(new Error(r.message), { responseCode: r.code }));
      },
      onData: (stream, session: SMTPServerSession, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            (parsed) => {
              this.caught.push({
                mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                rcptTo: session.envelope.rcptTo.map((r) => r.address),
                secure: session.secure,
                raw,
                parsed,
              });
              const delay = this.dataDelayMs;
              if (delay > 0) setTimeout(() => callback(), delay);
              else callback();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    server.on('error', () => {});
    this.#server = server;
    this.#port = (server.server.address() as AddressInfo).port;
  }

  /** Stops accepting: connections are refused until `listen` again. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Waits until `count` messages have arrived in all, with a deadline of its own. */
  async waitFor(count: number, ms = 15_000): Promise<Caught[]> {
    const deadline = Date.now() + ms;
    while (this.caught.length < count) {
      if (Date.now() > deadline) throw new Error(`the SMTP sink got ${this.caught.length} of ${count} messages within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.caught;
  }

  /** Messages to one recipient (by envelope). */
  to(address: string): Caught[] {
    return this.caught.filter((c) => c.rcptTo.includes(address));
  }
}

export function mailEnv(sink: SmtpSink, extra: Record<string, string> = {}): Record<string, string> {
  return { SMTP_URL: sink.url, SMTP_CA_FILE: SINK_CA_FILE, MAIL_FROM: 'assessments@assay.test', ...extra };
}

let addresses = 0;
/** A recipient address no other test uses. */
export const address = () => `c${process.pid}-${Date.now().toString(36)}-${++addresses}@example.com`;
