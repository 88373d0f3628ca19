import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../app-types.js';
import { PORTAL_WALK_HEADER, walkPermitted } from '../domain/portal-walk.js';
import { findTenant } from '../tenancy/credentials-store.js';

/** Said to the operator's terminal, not to a candidate: one line, in English. */
export const WALK_REFUSED =
  "This server does not let portal walk fill in this assessment: it walks the demo tenant's assessments (DEMO_TENANT on), or any on a server started with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true (development only)";

/**
 * Refuses a request from `bin/assay portal walk` (it says so in a header) on an assessment the
 * server does not let it fill in, so the CLI is never a ready-made way to fake a candidate in
 * production. True when the refusal has been sent. A client that hides the header is an ordinary
 * browser to the portal: docs/PORTAL.md says why that is acceptable.
 */
export async function refuseWalk(deps: Deps, request: FastifyRequest, reply: FastifyReply, tenantId: string): Promise<boolean> {
  if (request.headers[PORTAL_WALK_HEADER] === undefined) return false;
  const server = { allowPrivateNetworks: deps.config.webhook.allowPrivateNetworks, demoTenant: deps.config.demoTenant };
  if (server.allowPrivateNetworks || walkPermitted(server, (await findTenant(deps.store, tenantId))?.name)) return false;
  reply
    .code(403)
    .header('cache-control', 'no-store')
    .header(PORTAL_WALK_HEADER, 'refused')
    .type('text/plain; charset=utf-8')
    .send(WALK_REFUSED + '\n');
  return true;
}
