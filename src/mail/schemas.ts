import { Type } from 'typebox';
import { Envelope } from '../schemas/envelopes.js';

const Timestamp = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const MailMessage = Type.Object({
  Id: Type.String(),
  Kind: Type.Union([Type.Literal('Invitation'), Type.Literal('Reminder')]),
  Status: Type.Union(
    ['Pending', 'Sending', 'Sent', 'Failed', 'Cancelled'].map((s) => Type.Literal(s)),
    {
      description:
        'Pending: waiting for its time (a reminder) or its next try after a transient failure. Failed: refused by the SMTP server (5xx), or retried for 24 hours in vain. Cancelled: not sent, the assessment was over or a resend replaced it.',
    },
  ),
  Recipient: Type.Union([Type.String(), Type.Null()], { description: 'The address it went to, masked (a***@example.com); null before a try.' }),
  Attempts: Type.Integer(),
  LastReply: Type.Union([Type.String(), Type.Null()], { description: "The SMTP server's last reply, or why it was not sent; addresses in it masked." }),
  RequestedBy: Type.Union([Type.String(), Type.Null()], { description: 'api:<key id> for an invitation sent again on request; null when automatic.' }),
  CreatedAt: Type.String({ format: 'date-time' }),
  DueAt: Type.String({ format: 'date-time', description: 'When it may go: its reminder time, or its next try.' }),
  LastAttemptAt: Timestamp,
  SentAt: Timestamp,
});

export const MailLog = Envelope(Type.Array(MailMessage), 200);

export const InvitationQueued = Envelope(Type.Object({ MessageId: Type.String(), Status: Type.Literal('Pending') }), 202);
