// The candidate portal's paths, one function per shape: nothing else in src builds them (a lint rule
// refuses the prefix elsewhere). The portal's routes are registered under PORTAL_PREFIX.

export const PORTAL_PREFIX = '/anonymous/analyse';

/** A page of one assessment's session, one path segment after its AnalysisId. */
export type PortalPage = 'details' | 'gender' | 'confirm' | 'code' | 'feedback' | 'done';

/** The AssessmentUrl's path: the start page, the candidate's way in. */
export function portalStartPath(analysisId: string): string {
  return `${PORTAL_PREFIX}/start/${analysisId}`;
}

/** Whether a path is an AssessmentUrl's (the start page of an id of AnalysisId length). */
export function isPortalStartPath(path: string): boolean {
  return path.startsWith(`${PORTAL_PREFIX}/start/`) && /^[A-Za-z0-9_-]{16,64}$/.test(path.slice(PORTAL_PREFIX.length + 7));
}

/** Whether a path is one of the portal's. */
export const isPortalPath = (path: string): boolean => path.startsWith(`${PORTAL_PREFIX}/`);

export function portalPagePath(analysisId: string, page: PortalPage): string {
  return `${PORTAL_PREFIX}/${analysisId}/${page}`;
}

/** One page of the questionnaire, from 1. */
export function portalQuestionsPath(analysisId: string, page: number): string {
  return `${PORTAL_PREFIX}/${analysisId}/questions/${page}`;
}

/** The personal link: it opens the candidate's session on any device. */
export function portalResumePath(analysisId: string, token: string): string {
  return `${PORTAL_PREFIX}/${analysisId}/resume/${token}`;
}

export function portalLogoPath(apiKeyId: string, logoHash: string): string {
  return `${PORTAL_PREFIX}/logo/${apiKeyId}/${logoHash}`;
}

/** The stylesheet of a primary colour, given as six hex digits. */
export function portalThemePath(hexDigits: string): string {
  return `${PORTAL_PREFIX}/theme/${hexDigits}.css`;
}
