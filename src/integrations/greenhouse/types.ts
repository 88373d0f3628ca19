/** A Greenhouse key that authenticated a request: its portal and tenant. */
export interface GreenhouseCaller {
  keyId: string;
  tenantId: string;
  apiKeyId: string;
  portalDomain: string;
  /** The key as Greenhouse sent it: sealed with each order, it authenticates the completion PATCH. */
  key: string;
}
