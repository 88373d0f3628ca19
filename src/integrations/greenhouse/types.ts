/**
 * What the Greenhouse door needs of e-mail: one invitation for an assessment it ordered. Declared
 * here, narrow, so that the mail room can stand behind it; without it (no SMTP_URL) send_test
 * refuses, since Greenhouse leaves it to the partner to e-mail the candidate.
 */
export interface InvitationSender {
  sendInvitation(invitation: Invitation): Promise<void>;
}

export interface Invitation {
  analysisId: string;
  tenantId: string;
  apiKeyId: string;
  email: string;
  /** How the e-mail greets them: Greenhouse's preferred name, else the first name. */
  greeting: string;
  /** The candidate's link to the questionnaire. */
  assessmentUrl: string;
}

/** A Greenhouse key that authenticated a request: its portal and tenant. */
export interface GreenhouseCaller {
  keyId: string;
  tenantId: string;
  apiKeyId: string;
  portalDomain: string;
  /** The key as Greenhouse sent it: sealed with each order, it authenticates the completion PATCH. */
  key: string;
}
