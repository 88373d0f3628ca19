import { readFileSync } from 'node:fs';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type { MailConfig } from '../config.js';
import { classify, headerText, singleAddress, type Outcome } from './rules.js';
import type { RenderedMail } from './templates.js';

export interface Envelope {
  to: { name: string; address: string };
  fromName: string | null;
  replyTo: string | null;
  logo: { bytes: Buffer; type: string; cid: string } | null;
}

/**
 * Sends through the SMTP relay with nodemailer. STARTTLS is required on smtp:// unless turned off,
 * and the relay's certificate is verified. Every header value goes through `headerText` or
 * `singleAddress`, and the envelope names the one recipient explicitly, so no text a caller
 * chose can add a header or a recipient.
 */
export class Sender {
  readonly #transport: Transporter<SMTPPool.SentMessageInfo>;
  readonly #from: string;

  constructor(config: MailConfig) {
    const url = new URL(config.smtpUrl);
    const secure = url.protocol === 'smtps:';
    const options: SMTPPool.Options = {
      pool: true,
      maxConnections: Math.min(config.maxInFlight, 5),
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      requireTLS: !secure && config.requireTls,
      tls: { rejectUnauthorized: true, ...(config.caFile ? { ca: readFileSync(config.caFile) } : {}) },
      connectionTimeout: config.timeoutMs,
      greetingTimeout: config.timeoutMs,
      socketTimeout: config.timeoutMs,
      disableFileAccess: true,
      disableUrlAccess: true,
      ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
      ...(config.dkim
        ? { dkim: { domainName: config.dkim.domainName, keySelector: config.dkim.keySelector, privateKey: readFileSync(config.dkim.privateKeyFile, 'utf8') } }
        : {}),
    };
    this.#transport = nodemailer.createTransport(options);
    this.#from = config.from;
  }

  /** One message to one recipient; never throws: every failure is an outcome. */
  async send(e: Envelope, mail: RenderedMail): Promise<Outcome & { recipient: string | null }> {
    const address = singleAddress(e.to.address);
    if (!address) return { kind: 'permanent', reply: 'not sent: the recipient is not a single plain e-mail address', recipient: null };
    const replyTo = e.replyTo ? singleAddress(e.replyTo) : undefined;
    try {
      const info = await this.#transport.sendMail({
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
      });
      if (info.rejected.length > 0) return { kind: 'permanent', reply: (info.response ?? 'recipient refused').slice(0, 500), recipient: address };
      return { kind: 'sent', reply: (info.response ?? '').slice(0, 500), recipient: address };
    } catch (err) {
      return { ...classify(err as Parameters<typeof classify>[0]), recipient: address };
    }
  }

  close(): void {
    this.#transport.close();
  }
}
