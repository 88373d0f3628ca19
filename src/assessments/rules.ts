import { DomainError, webhookUrlNotAllowed } from '../domain/errors.js';
import { isLocalName, isPublicAddress, literalAddress } from '../webhooks/network-policy.js';
import { portalStartPath } from '../domain/portal-paths.js';

export const ASSESSMENT_TYPES = { 0: 'TMA170', 1: 'TMA312', 2: 'SPI' } as const;
export type AssessmentTypeNumber = keyof typeof ASSESSMENT_TYPES;
export type AssessmentCode = (typeof ASSESSMENT_TYPES)[AssessmentTypeNumber];
export type { LifecycleStatus as AssessmentStatus } from '../lifecycle/rules.js';

/** The fields of an assessment request, as the rules know them. */
export type AssessmentField =
  'externalId' | 'assessmentType' | 'returnUrl' | 'webhookUrl' | 'webhookUsername' | 'webhookPassword' | 'expiresAt' | 'sendInvitation';

/** Each field's name on a door's wire: a rule's message and `field` say what the caller sent. */
export type FieldNames = Readonly<Record<AssessmentField, string>>;

const FIELDS: readonly AssessmentField[] = [
  'externalId',
  'assessmentType',
  'returnUrl',
  'webhookUrl',
  'webhookUsername',
  'webhookPassword',
  'expiresAt',
  'sendInvitation',
];

/** A door's names for the fields it has; a field it never sends keeps Assay's own key as its name. */
export function fieldNames(given: Partial<FieldNames>): FieldNames {
  return Object.fromEntries(FIELDS.map((f) => [f, given[f] ?? f])) as Record<AssessmentField, string>;
}

export function assessmentCode(type: number, names: Pick<FieldNames, 'assessmentType'>): AssessmentCode {
  if (type !== 0 && type !== 1 && type !== 2) {
    throw new DomainError('InvalidAssessmentType', `${names.assessmentType} must be 0 (TMA170), 1 (TMA312) or 2 (SPI)`, {
      field: names.assessmentType,
      allowed: [0, 1, 2],
    });
  }
  return ASSESSMENT_TYPES[type];
}

// DNS labels (letters, digits, - and _, after the parser's punycode step) or an address literal.
// URL parsing lets , ; ' * and more through in a host name, and a ReturnUrl's origin goes into
// the portal's Content-Security-Policy header.
const PLAIN_HOST = /^(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])$/;

/** Whether the URL's host is a plain DNS name or an IP address, safe to repeat in a header. */
export function hasPlainHost(url: URL): boolean {
  return PLAIN_HOST.test(url.hostname);
}

function httpUrl(value: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DomainError('ValidationError', `${field} must be an absolute http or https URL`, { field, rule: 'absoluteHttpUrl' });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new DomainError('ValidationError', `${field} must be an absolute http or https URL`, { field, rule: 'absoluteHttpUrl' });
  }
  if (!hasPlainHost(url)) {
    throw new DomainError('ValidationError', `${field}'s host must be a DNS name (letters, digits, hyphens, dots) or an IP address`, {
      field,
      rule: 'hostName',
    });
  }
  return url;
}

export interface WebhookSettings {
  url: string;
  username: string | undefined;
  password: string | undefined;
}

export interface AssessmentRequest {
  assessmentType: number;
  returnUrl?: string | undefined;
  webhookUrl?: string | undefined;
  webhookUsername?: string | undefined;
  webhookPassword?: string | undefined;
}

/**
 * The rules of an assessment request beyond field shapes, in the words of the door that asked
 * (`names`). A webhook URL that names a non-public address literally is refused now; DNS names
 * are vetted again at delivery time.
 */
export function checkAssessmentRequest(
  req: AssessmentRequest,
  allowPrivateNetworks: boolean,
  names: FieldNames,
): { code: AssessmentCode; returnUrl: string | null; webhook: WebhookSettings | null } {
  const code = assessmentCode(req.assessmentType, names);
  const returnUrl = req.returnUrl === undefined ? null : httpUrl(req.returnUrl, names.returnUrl).href;
  const { webhookUrl: urlName, webhookUsername: userName, webhookPassword: passwordName } = names;

  if (req.webhookUrl === undefined) {
    if (req.webhookUsername !== undefined || req.webhookPassword !== undefined) {
      throw new DomainError('ValidationError', `${userName} and ${passwordName} need a ${urlName}`, {
        field: req.webhookUsername !== undefined ? userName : passwordName,
        rule: 'requiresWebhookUrl',
      });
    }
    return { code, returnUrl, webhook: null };
  }
  if (req.webhookPassword !== undefined && req.webhookUsername === undefined) {
    throw new DomainError('ValidationError', `${passwordName} needs a ${userName}`, { field: passwordName, rule: 'requiresWebhookUsername' });
  }
  if (req.webhookUsername?.includes(':')) {
    throw new DomainError('ValidationError', `${userName} must not contain ":" (Basic authentication forbids it)`, { field: userName, rule: 'noColon' });
  }
  const url = httpUrl(req.webhookUrl, urlName);
  if (url.username || url.password) {
    throw new DomainError('ValidationError', `${urlName} must not carry credentials; use ${userName} and ${passwordName}`, {
      field: urlName,
      rule: 'noUserInfo',
    });
  }
  if (!allowPrivateNetworks) {
    const literal = literalAddress(url.hostname);
    if ((literal !== undefined && !isPublicAddress(literal)) || isLocalName(url.hostname)) {
      throw new DomainError('WebhookUrlNotAllowed', webhookUrlNotAllowed(urlName), { field: urlName, rule: 'publicAddress' });
    }
  }
  return {
    code,
    returnUrl,
    webhook: { url: url.href, username: req.webhookUsername, password: req.webhookPassword },
  };
}

export function assessmentUrl(portalDomain: string, analysisId: string): string {
  return portalDomain + portalStartPath(analysisId);
}
