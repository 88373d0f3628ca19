import type { NodemailerError, ResultCallback } from 'nodemailer/lib/errors.js';
import type { MailMessage, SendMailOptions, SentMessageInfo, Transport } from 'nodemailer/lib/mailer/index.js';
import SMTPConnection, { type SMTPConnectionOptions, type SMTPConnectionSendInfo } from 'nodemailer/lib/smtp-connection/index.js';

export type CheckedInfo = SentMessageInfo & SMTPConnectionSendInfo;

export interface CheckedMailOptions extends SendMailOptions {
  /**
   * Asked once the relay has greeted, TLS is up and the login done, right before the envelope
   * (MAIL FROM, RCPT TO, DATA): false drops the message unsent. A slow relay can take seconds to
   * get here, and the message may have been withdrawn meanwhile.
   */
  beforeEnvelope?: () => Promise<boolean>;
}

/** The code of a message dropped unsent by its check or its signal. */
export const WITHDRAWN = 'EWITHDRAWN';

const withdrawn = (why: string) => Object.assign(new Error(`not sent: ${why}`), { code: WITHDRAWN }) as NodemailerError;

/**
 * nodemailer's SMTP transport, one connection per message, with a check between the handshake and
 * the envelope: nodemailer's own transports go from the greeting straight to MAIL FROM, so an
 * erasure while a relay is slow to greet could not stop the message. The message is composed as
 * for any transport (Mail: headers, attachments, DKIM); only its delivery is driven here, with
 * nodemailer's SMTPConnection. Its signal aborts it up to the check; after the check it goes.
 */
export class CheckedSmtp implements Transport<CheckedInfo> {
  readonly name = 'assay-checked-smtp';
  readonly version = '1';
  readonly supportsAbortSignal = true;
  readonly #options: SMTPConnectionOptions;
  readonly #auth: { user: string; pass: string } | undefined;

  constructor(options: SMTPConnectionOptions, auth?: { user: string; pass: string }) {
    this.#options = options;
    this.#auth = auth;
  }

  send(mail: MailMessage<CheckedInfo>, callback: ResultCallback<CheckedInfo>): void {
    const { signal, beforeEnvelope } = mail.data as CheckedMailOptions;
    const connection = new SMTPConnection(this.#options);
    let done = false;
    const finish = (err: NodemailerError | null, info?: CheckedInfo) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      if (err) connection.close();
      else connection.quit();
      callback(err, info);
    };
    const onAbort = () => finish(withdrawn('withdrawn while connecting to the mail server'));
    // Kept for the connection's life: an error after the finish (a late socket error) is no crash.
    connection.on('error', (err: NodemailerError) => finish(err));
    if (signal?.aborted) return void setImmediate(onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    connection.connect((err) => {
      if (err) return finish(err);
      this.#login(connection)
        .then(() => (beforeEnvelope ? beforeEnvelope() : true))
        .then(
          (go) => {
            if (done) return;
            if (!go) return finish(withdrawn('its message was withdrawn (erased) before the envelope'));
            const envelope = mail.message.getEnvelope();
            connection.send(envelope, mail.message.createReadStream(), (sendErr, info) => {
              if (sendErr) return finish(sendErr);
              finish(null, { ...info, envelope, messageId: mail.message.messageId() });
            });
          },
          (loginErr: NodemailerError) => finish(loginErr),
        );
    });
  }

  /** Logs in when the relay offers it and credentials were given, as nodemailer's SMTP transport does. */
  #login(connection: SMTPConnection): Promise<void> {
    const auth = this.#auth;
    if (!auth || !connection.allowsAuth) return Promise.resolve();
    return new Promise((resolve, reject) => connection.login({ credentials: { ...auth } }, (err) => (err ? reject(err) : resolve())));
  }
}
