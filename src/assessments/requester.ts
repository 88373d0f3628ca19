/** Who asks for an action, whatever the door: the tenant, the key it came with, and that key's portal. */
export interface Requester {
  tenantId: string;
  apiKeyId: string;
  portalDomain: string;
}
