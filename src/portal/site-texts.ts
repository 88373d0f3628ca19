import type { Language } from '../measurement/instruments/types.js';

/** "A, B and C": the codes of the instruments loaded. */
const listed = (codes: string[], and: string) => (codes.length < 2 ? codes.join('') : `${codes.slice(0, -1).join(', ')} ${and} ${codes.at(-1)}`);

/** The service's own pages (the front door, page not found), in the portal's two languages. */
export const SITE_TEXTS: Record<
  Language,
  {
    frontTitle: string;
    frontIntro: (codes: string[]) => string;
    candidates: string;
    integrators: string;
    docs: string;
    openapi: string;
    health: string;
    pageNotFoundTitle: string;
    pageNotFoundText: string;
  }
> = {
  en: {
    frontTitle: 'Assay candidate assessments',
    frontIntro: (codes) => `This service runs online assessments (${listed(codes, 'and')}) for recruiters’ applicant-tracking systems:`,
    candidates: 'Invited to an assessment? Open the complete link from your invitation; there is nothing to sign in to here.',
    integrators: 'Connecting an applicant-tracking system?',
    docs: 'API documentation',
    openapi: 'OpenAPI document',
    health: 'Health',
    pageNotFoundTitle: 'Page not found',
    pageNotFoundText: 'There is nothing at this address. If you were invited to an assessment, use the complete link from your invitation.',
  },
  nl: {
    frontTitle: 'Assay-assessments voor kandidaten',
    frontIntro: (codes) => `Deze dienst neemt online assessments af (${listed(codes, 'en')}) voor de sollicitatiesystemen van recruiters:`,
    candidates: 'Uitgenodigd voor een assessment? Open de volledige link uit uw uitnodiging; u hoeft hier niet in te loggen.',
    integrators: 'Koppelt u een sollicitatiesysteem?',
    docs: 'API-documentatie',
    openapi: 'OpenAPI-document',
    health: 'Status',
    pageNotFoundTitle: 'Pagina niet gevonden',
    pageNotFoundText: 'Op dit adres staat niets. Bent u uitgenodigd voor een assessment, gebruik dan de volledige link uit uw uitnodiging.',
  },
};
