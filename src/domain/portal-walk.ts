/**
 * The header `bin/assay portal walk` sends on every request, so the portal can tell it from a
 * candidate's browser and refuse it where it is not allowed (src/portal/walk-guard.ts).
 */
export const PORTAL_WALK_HEADER = 'assay-portal-walk';

/** The tenant the first start makes when DEMO_TENANT is on (src/tenancy/provision.ts). */
export const DEMO_TENANT_NAME = 'demo';

/**
 * Whether a walk may fill in an assessment of a tenant: on a server that lets webhooks reach
 * private networks (development), or, with the demo tenant on, for the demo tenant's assessments.
 */
export function walkPermitted(server: { allowPrivateNetworks: boolean; demoTenant: boolean }, tenantName: string | undefined): boolean {
  return server.allowPrivateNetworks || (server.demoTenant && tenantName === DEMO_TENANT_NAME);
}
