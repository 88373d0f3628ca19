import type { PortalSettings } from '../tenancy/portal-settings-store.js';
import { portalLogoPath, portalThemePath } from '../domain/portal-paths.js';

/** What a portal's pages show of the organisation behind it. */
export interface Brand {
  name: string | null;
  logoUrl: string | null;
  /** A stylesheet that sets the primary colour; null keeps Assay's. */
  themeUrl: string | null;
  privacyUrl: string | null;
  contact: string | null;
}

export function brandOf(s: PortalSettings, apiKeyId: string): Brand {
  return {
    name: s.organisation_name,
    logoUrl: s.logo_hash ? portalLogoPath(apiKeyId, s.logo_hash) : null,
    themeUrl: s.primary_colour ? portalThemePath(s.primary_colour.slice(1).toLowerCase()) : null,
    privacyUrl: s.privacy_url,
    contact: s.contact_email,
  };
}
