import type { Generated } from 'kysely';
import type { ConsoleTables } from './schema-console.js';

/** Row shapes of every table. Timestamps are ISO-8601 UTC strings so both dialects store them alike. */
export interface TenantTable {
  id: string;
  name: string;
  created_at: string;
  /** Overrides RETENTION_DAYS for this tenant's candidates. */
  retention_days: number | null;
}

export interface ApiUserTable {
  id: string;
  tenant_id: string;
  username: string;
  password_hash: string;
  disabled: number;
  created_at: string;
  updated_at: string;
}

export interface ApiKeyTable {
  id: string;
  tenant_id: string;
  prefix: string;
  key_hash: string;
  portal_domain: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CandidateTable {
  external_id: string;
  tenant_id: string;
  email: string;
  first_name: string;
  last_name: string;
  preposition: string;
  gender: number;
  needs_to_update_data: number;
  created_at: string;
  updated_at: string;
  /** 1 once the candidate answered the gender question, "prefer not to say" (gender 0) included. */
  gender_asked: Generated<number>;
}

export interface AssessmentTable {
  analysis_id: string;
  tenant_id: string;
  external_id: string;
  api_key_id: string;
  portal_domain: string;
  assessment_type: number;
  return_url: string | null;
  webhook_url: string | null;
  webhook_username: string | null;
  webhook_password_enc: string | null;
  /** The ATS integration that ordered it ('greenhouse'); null for the caller API. */
  ordered_via: string | null;
  /** How the completion call is made (webhooks/retry.ts): null, a signed POST once; 'patch', a bare PATCH retried until taken. */
  webhook_style: 'patch' | null;
  /** A Basic username that is itself a secret (a partner's key), sealed like the password. */
  webhook_username_enc: string | null;
  /** A Greenhouse order's completion url as SHA-256: unique per tenant, candidate and test (migration 0015); null otherwise. */
  order_key: string | null;
  /** Expired is not stored: it follows from expires_at. */
  status: 'Created' | 'Started' | 'Completed' | 'Cancelled';
  /** JSON ScaleScore[], set at completion. */
  scores: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  /** JSON CompetenceScore[], set at completion. */
  competence_scores: string | null;
  consistency: number | null;
  /** JSON IntegrityFlag[], set at completion. */
  integrity_flags: string | null;
  /** The norm group in force when it was completed, pinned so the result stays reproducible. */
  norm_group_id: string | null;
  /** The candidate's last page post (or start): the start of the time spent on the next page. */
  last_activity_at: string | null;
  /** 1 once a browser holds the candidate's credential from Start; 0 before, and for rows started before that rule. */
  candidate_bound: number;
  /** The candidate credential's generation: the personal link moves it on to cut off other browsers. */
  candidate_key_gen: number;
  /** Signs the report's share links; replaced to revoke them, cleared on erasure. */
  report_nonce: string | null;
  /** Null when the portal does not ask the candidate; else pending, released or declined. */
  results_release: 'pending' | 'released' | 'declined' | null;
  results_released_at: string | null;
  /** The instrument's content version it was taken in; null before it was recorded. */
  content_version: string | null;
  /** The portal's language at completion; null before it was recorded. */
  language: 'nl' | 'en' | null;
  /** Null for assessments created before expiry existed: those never expire. */
  expires_at: string | null;
  cancelled_at: string | null;
  // changed_at, generated (migration 0021), is read only by the list (assessments/list-store.ts).
}

/** Per portal (API key): what the candidate is offered after finishing. */
export interface PortalSettingsTable {
  api_key_id: string;
  candidate_feedback: number;
  candidate_release: number;
  updated_at: string;
  organisation_name: string | null;
  /** Base64 of the image, at most 256 KiB decoded. */
  logo: string | null;
  logo_type: string | null;
  /** SHA-256 of the logo: its URL, so it can be cached for a year. */
  logo_hash: string | null;
  primary_colour: string | null;
  privacy_url: string | null;
  contact_email: string | null;
  /** 1: webhooks carry Standard Webhooks signature headers. */
  webhook_signing: number;
  /** 1: the vendor's sten and percentile lists carry a translation's scores against another language's norms (the Note says so). */
  translated_norms: number;
  /** The whsec_ secret, sealed with the server key. */
  webhook_secret_enc: string | null;
  /** The secret before the last rotation, still signed with until webhook_secret_previous_until. */
  webhook_secret_previous_enc: string | null;
  webhook_secret_previous_until: string | null;
}

/** Who erased how much, when: no personal data. */
export interface ErasureTable {
  id: string;
  erased_at: string;
  tenant_id: string;
  /** api:<key id>, cli, or retention. */
  erased_by: string;
  reason: 'request' | 'retention';
  candidates: number;
  assessments: number;
  answers: number;
}

export interface AnswerTable {
  analysis_id: string;
  item_id: string;
  value: number;
  answered_at: string;
}

export interface PageTimeTable {
  analysis_id: string;
  page: number;
  /** Milliseconds on the page, summed over every post of it. */
  ms: number;
  posts: number;
}

export interface NormGroupTable {
  id: string;
  name: string;
  assessment_type: number;
  source: string;
  sample_size: number;
  collected_from: string | null;
  collected_to: string | null;
  illustrative: number;
  /** JSON NormTable. */
  norms: string;
  /** The default for its instrument: at most one per assessment type. */
  active: number;
  created_at: string;
  /** The content version and language of its sample, where known. */
  content_version: string | null;
  language: string | null;
  /** JSON NormSampleAccount: the make-up, exclusions and gender differences; null where not recorded (migration 0013). */
  sample: string | null;
  /** JSON NormDescription: the plain description by language; null where the group has none (migration 0014). */
  description: string | null;
}

export interface PortalNormTable {
  api_key_id: string;
  assessment_type: number;
  norm_group_id: string;
}

/** scheduled: a retry waiting for its due_at, then pending. */
export type DeliveryStatus = 'scheduled' | 'pending' | 'sending' | 'delivered' | 'failed' | 'unknown';

/** One attempt to deliver an assessment's completion webhook: the outbox and the delivery log. */
export interface WebhookAttemptTable {
  id: string;
  analysis_id: string;
  /** The assessment's tenant, copied so the dispatcher can share its slots out by tenant (migration 0009). */
  tenant_id: string;
  /** automatic: at completion; manual: an operator asked (redelivery); release: a Greenhouse order's PATCH again when the candidate released the results. */
  kind: 'automatic' | 'manual' | 'release';
  /** For manual attempts: api:<key id> or cli. */
  requested_by: string | null;
  status: DeliveryStatus;
  created_at: string;
  claimed_at: string | null;
  claimed_by: string | null;
  attempted_at: string | null;
  duration_ms: number | null;
  response_status: number | null;
  error: string | null;
  /** A scheduled retry is made pending from this time on (migration 0012). */
  due_at: string | null;
}

export type MailStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'cancelled';

/** One e-mail to a candidate (src/mail): the outbox while pending, the mail log after. */
export interface MailMessageTable {
  id: string;
  tenant_id: string;
  analysis_id: string;
  kind: 'invitation' | 'reminder';
  /** For an invitation sent again on request: api:<key id>; null when automatic. */
  requested_by: string | null;
  status: MailStatus;
  /** Not claimed before: the reminder's time, or the next try after a transient failure. */
  due_at: string;
  created_at: string;
  claimed_at: string | null;
  claimed_by: string | null;
  attempts: Generated<number>;
  first_attempt_at: string | null;
  last_attempt_at: string | null;
  sent_at: string | null;
  /** The address it went to, once tried; personal data, removed with the row on erasure. */
  recipient: string | null;
  /** The SMTP server's last reply, or why it was not sent. */
  smtp_reply: string | null;
  /** An invitation's address as queued, lower-cased, for the cap per recipient (migration 0017); personal data, removed with the row. */
  address_key: string | null;
}

/** Per portal (API key): who mail comes from, in which language, and the reminders. */
export interface PortalMailSettingsTable {
  api_key_id: string;
  from_name: string | null;
  reply_to: string | null;
  language: 'nl' | 'en';
  /** 1: create-assessment sends the invitation unless SendInvitation is false. */
  send_invitation: number;
  /** Null: no reminders. */
  reminder_after_seconds: number | null;
  max_reminders: number;
  updated_at: string;
}

export interface CredentialsVersionTable {
  id: number;
  version: number;
}

/** A Greenhouse Assessment Partner key of one portal: only its SHA-256 and a visible prefix. */
export interface GreenhouseKeyTable {
  id: string;
  tenant_id: string;
  api_key_id: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** An Idempotency-Key of one API key (src/idempotency): hashes, the claim, and the response once sent. */
export interface IdempotencyKeyTable {
  api_key_id: string;
  key_hash: string;
  tenant_id: string;
  request_hash: string;
  external_id: string | null;
  claim_id: string;
  created_at: string;
  lease_until: string;
  response_status: number | null;
  response_body: string | null;
}

export interface DB extends ConsoleTables {
  tenants: TenantTable;
  api_users: ApiUserTable;
  api_keys: ApiKeyTable;
  candidates: CandidateTable;
  assessments: AssessmentTable;
  assessment_answers: AnswerTable;
  webhook_attempts: WebhookAttemptTable;
  credentials_version: CredentialsVersionTable;
  assessment_page_times: PageTimeTable;
  norm_groups: NormGroupTable;
  portal_norms: PortalNormTable;
  portal_settings: PortalSettingsTable;
  erasures: ErasureTable;
  mail_messages: MailMessageTable;
  portal_mail_settings: PortalMailSettingsTable;
  greenhouse_keys: GreenhouseKeyTable;
  idempotency_keys: IdempotencyKeyTable;
}
