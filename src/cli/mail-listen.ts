import type { AddressInfo } from 'node:net';
import type { Command } from 'commander';
import { listenCommand, listenOn, listeningUrl, portOption, untilStopped } from './listen.js';
import { CliError } from './shared.js';

export interface CaughtMail {
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  links: string[];
  text: string;
}

function describe(m: CaughtMail): string {
  return [
    `${m.receivedAt} mail from ${m.from} to ${m.to.join(', ')}`,
    `  subject: ${m.subject}`,
    ...m.links.map((l) => `  link: ${l}`),
    '  text:',
    ...m.text
      .trimEnd()
      .split('\n')
      .map((l) => `    ${l}`),
    '',
  ].join('\n');
}

/**
 * A local SMTP catcher for trying mail: takes every message (no TLS, no authentication) and
 * prints who it is from and to, its subject, its links and its text part. Its packages
 * (smtp-server, mailparser) are loaded only when it runs.
 */
export function mailCommands(program: Command): void {
  const mail = program.command('mail').description('e-mail to candidates');
  listenCommand(mail, 'catch mail on this machine and print each message (a development aid; accepts everything, sends nothing on)', 2525).action(
    async (opts: { port: string; host: string; json?: boolean }) => {
      const port = portOption(opts.port);
      let modules: [typeof import('smtp-server'), typeof import('mailparser')];
      try {
        modules = await Promise.all([import('smtp-server'), import('mailparser')]);
      } catch {
        throw new CliError('mail listen needs the packages smtp-server and mailparser (npm install)');
      }
      const [{ SMTPServer }, { simpleParser }] = modules;
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        disableReverseLookup: true,
        logger: false,
        size: 10 * 1024 * 1024,
        onData(stream, session, callback) {
          simpleParser(stream).then(
            (parsed) => {
              const text = parsed.text ?? '';
              const m: CaughtMail = {
                receivedAt: new Date().toISOString(),
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
                subject: parsed.subject ?? '',
                links: [...new Set(text.match(/https?:\/\/[^\s<>"]+/g) ?? [])],
                text,
              };
              process.stdout.write(opts.json ? JSON.stringify({ mail: m }) + '\n' : describe(m));
              callback();
            },
            (err: Error) => callback(err),
          );
        },
      });
      // smtp-server re-emits its socket's errors, and those of every connection, as its own: without
      // a listener they would end the catcher with a stack trace.
      await listenOn(server, port, opts.host);
      server.on('error', (error: NodeJS.ErrnoException) => process.stderr.write(`assay: mail listen: ${error.code ?? error.message}\n`));
      const url = listeningUrl('smtp', server.server.address() as AddressInfo);
      process.stdout.write(
        opts.json
          ? JSON.stringify({ listening: url }) + '\n'
          : [
              `Catching mail on ${url} (Ctrl-C stops).`,
              `Start Assay with SMTP_URL=${url} SMTP_REQUIRE_TLS=false MAIL_FROM=assessments@example.com (development only: no TLS).`,
              '',
            ].join('\n'),
      );
      await untilStopped((done) => server.close(done));
    },
  );
}
