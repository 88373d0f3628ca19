import { readFileSync } from 'node:fs';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { MailConfig } from '../config.js';
import { classify, headerText, singleAddress, type Outcome } from './rules.js';
import type { RenderedMail } from './templates.js';
import { CheckedSmtp, WITHDRAWN, type CheckedInfo, type CheckedMailOptions } from './transport.js';

export interface Envelope {
  to: { name: string; address: string };
  fromName: string | null;
  replyTo: string | null;
  logo: { bytes: Buffer; type: string; cid: string } | null;
}

/** What may stop a message before it is handed to the relay (an erasure, src/mail/sends.ts). */
export interface Guard {
  signal: AbortSignal;
  /** Asked right before the envelope: false drops the message unsent. */
  beforeEnvelope: () => Promise<boolean>;
}

/** A message dropped unsent by its guard: nothing reached the relay. */
export type Sent = (Outcome & { recipient: string | null }) | { kind: 'withdrawn'; reply: string; recipient: string };

/**
 * Sends through the SMTP relay with nodemailer. STARTTLS is required on smtp:// unless turned off,
 * and the relay's certificate is verified. Every header value goes through `headerText` or
 * `singleAddress`, and the envelope names the one recipient explicitly, so no text a caller
 * chose can add a header or a recipient. Each message has a connection of its own
 * (`transport.ts`), checked by its guard between the relay's greeting and the envelope.
 */
export class Sender {
  readonly #transport: Mail<CheckedInfo>;
  readonly #from: string;

  constructor(config: MailConfig) {
    const url = new URL(config.smtpUrl);
    const secure = url.protocol === 'smtps:';
    const transport = new CheckedSmtp(
      {
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port ? Number(url.port) : secure ? 465 : 587,
        secure,
        requireTLS: !secure && config.requireTls,
        tls: { rejectUnauthorized: true, ...(config.caFile ? { ca: readFileSync(config.caFile) } : {}) },
        connectionTimeout: config.timeoutMs,
        greetingTimeout: config.timeoutMs,
        socketTimeout: config.timeoutMs,
      },
      url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    );
    // A transport of one's own gets no options from Mail: the sandbox and DKIM go in as defaults.
    this.#transport = nodemailer.createTransport(transport, {
      disableFileAccess: true,
      disableUrlAccess: true,
      ...(config.dkim
        ? { dkim: { domainName: config.dkim.domainName, keySelector: config.dkim.keySelector, privateKey: readFileSync(config.dkim.privateKeyFile, 'utf8') } }
        : {}),
    });
    this.#from = config.from;
  }

  /** One message to one recipient; never throws: every failure is an outcome. */
  async send(e: Envelope, mail: RenderedMail, guard?: Guard): Promise<Sent> {
    const address = singleAddress(e.to.address);
    if (!address) return { kind: 'permanent', reply: 'not sent: the recipient is not a single plain e-mail address', recipient: null };
    const replyTo = e.replyTo ? singleAddress(e.replyTo) : undefined;
    try {
      const options: CheckedMailOptions = {
        from: { name: e.fromName ? headerText(e.fromName, 100) : '', address: this.#from },
        to: { name: headerText(e.to.name, 200), address },
        ...(replyTo ? { replyTo } : {}),
        subject: headerText(mail.subject, 250),
        text: mail.text,
        html: mail.html,
        envelope: { from: this.#from, to: [address] },
        ...(e.logo
          ? {
              attachments: [
                {
                  filename: `logo.${e.logo.type.split('/')[1]}`,
                  content: e.logo.bytes,
                  contentType: e.logo.type,
                  cid: e.logo.cid,
                  contentDisposition: 'inline' as const,
                },
              ],
            }
          : {}),
        ...(guard ? { signal: guard.signal, beforeEnvelope: guard.beforeEnvelope } : {}),
      };
      const info = await this.#transport.sendMail(options);
      if (info.rejected.length > 0) return { kind: 'permanent', reply: (info.response ?? 'recipient refused').slice(0, 500), recipient: address };
      return { kind: 'sent', reply: (info.response ?? '').slice(0, 500), recipient: address };
    } catch (err) {
      const failure = err as Parameters<typeof classify>[0];
      if (failure.code === WITHDRAWN) return { kind: 'withdrawn', reply: failure.message ?? 'not sent', recipient: address };
      return { ...classify(failure), recipient: address };
    }
  }
}
