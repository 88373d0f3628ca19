import { parseOrigin } from '../config.js';
import { hashPassword } from '../security/passwords.js';
import { newApiKey, newPassword } from '../security/tokens.js';
import { countTenants, createKey, createTenant, createUser } from './credentials-store.js';
import type { Store } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { activateNormGroup, countNormGroups, insertNormGroup, setPortalNormGroup } from '../measurement/norms-store.js';
import type { Instruments } from '../measurement/instruments/load.js';
import { readContent } from '../measurement/load.js';
import { parseNormFile } from '../measurement/norm-groups.js';
import { textProblem } from '../domain/text.js';
import { DEMO_TENANT_NAME } from '../domain/portal-walk.js';
import type { CompetenceModel } from '../measurement/types.js';
import { EXAMPLE_NORMS_DIR } from '../platform/paths.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export class ProvisionError extends Error {}

const USERNAME = /^[A-Za-z0-9._@-]{3,64}$/;

export function checkUsername(username: string): string {
  if (!USERNAME.test(username)) {
    throw new ProvisionError(`Username "${username}" must be 3 to 64 letters, digits or . _ @ - (no colon: Basic authentication forbids it)`);
  }
  return username;
}

export function usernameFor(tenantName: string): string {
  const slug = tenantName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 50);
  return slug.length >= 3 ? slug : `${slug}-api`.replace(/^-/, '');
}

export interface IssuedCredentials {
  tenantId: string;
  tenant: string;
  username: string;
  password: string;
  apiKey: string;
  apiKeyId: string;
  apiKeyPrefix: string;
  portalDomain: string;
}

async function issueUser(username: string) {
  const password = newPassword();
  return { password, user: { username: checkUsername(username), passwordHash: await hashPassword(password) } };
}

/** Creates a tenant with one API user and one API key. Secrets are returned once and stored hashed. */
export async function provisionTenant(store: Store, name: string, portalDomain: string, username = usernameFor(name)): Promise<IssuedCredentials> {
  if (!name.trim() || name.length > 100) throw new ProvisionError('Tenant name must be 1 to 100 characters');
  const problem = textProblem('Tenant name', name);
  if (problem) throw new ProvisionError(problem);
  const domain = parseOrigin(portalDomain, '--portal-domain');
  const { password, user } = await issueUser(username);
  const key = newApiKey();
  try {
    const ids = await createTenant(store, name, user, { prefix: key.prefix, hash: key.hash, portalDomain: domain });
    return { tenantId: ids.tenantId, tenant: name, username, password, apiKey: key.key, apiKeyId: ids.keyId, apiKeyPrefix: key.prefix, portalDomain: domain };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ProvisionError(`A tenant named "${name}" or a user named "${username}" already exists`);
    throw error;
  }
}

export async function provisionKey(store: Store, tenantId: string, portalDomain: string) {
  const domain = parseOrigin(portalDomain, '--portal-domain');
  const key = newApiKey();
  const id = await createKey(store, tenantId, { prefix: key.prefix, hash: key.hash, portalDomain: domain });
  return { apiKeyId: id, apiKey: key.key, apiKeyPrefix: key.prefix, portalDomain: domain };
}

export async function provisionUser(store: Store, tenantId: string, username: string) {
  const { password, user } = await issueUser(username);
  try {
    const id = await createUser(store, tenantId, user);
    return { userId: id, username, password };
  } catch (error) {
    if (isUniqueViolation(error)) throw new ProvisionError(`A user named "${username}" already exists`);
    throw error;
  }
}

/** On an empty database, a demo tenant on the server's own URL, so the README works at once. */
export async function ensureDemoTenant(store: Store, publicBaseUrl: string): Promise<IssuedCredentials | undefined> {
  if ((await countTenants(store)) > 0) return undefined;
  try {
    return await provisionTenant(store, DEMO_TENANT_NAME, publicBaseUrl, 'demo');
  } catch (error) {
    // Another process started at the same moment and created it.
    if (error instanceof ProvisionError) return undefined;
    throw error;
  }
}

export function demoBanner(c: IssuedCredentials, baseUrl: string): string {
  const body = JSON.stringify({ ExternalId: 'cand-1', Email: 'ada@example.com', FirstName: 'Ada', LastName: 'Lovelace', Preposition: '' });
  return [
    '',
    'Assay created a demo tenant. Its secrets are shown this once (set DEMO_TENANT=false to skip this):',
    `  username:      ${c.username}`,
    `  password:      ${c.password}`,
    `  api key:       ${c.apiKey}`,
    `  portal domain: ${c.portalDomain}`,
    '',
    'Try it (the README\'s "Try it" goes on from here):',
    `  export AUTH='${c.username}:${c.password}' KEY='${c.apiKey}' BASE=${baseUrl}`,
    `  curl -sS -u "$AUTH" -H "api-key: $KEY" -H 'Content-Type: application/json' \\`,
    `    -d '${body}' $BASE/api/anonymous/candidate`,
    '',
  ].join('\n');
}

/** Stores the illustrative example of each instrument from content/norms, inactive; a fixed id, so once. Returns their ids. */
async function storeExampleNorms(store: Store, instruments: Instruments, model: CompetenceModel, dir: string): Promise<Map<number, string>> {
  const ids = new Map<number, string>();
  for (const instrument of instruments.values()) {
    // Only instruments that ship an illustrative example: the SPI ships real norms (ensureShippedNorms).
    const file = join(dir, `example-${instrument.code.toLowerCase()}.json`);
    if (!existsSync(file)) continue;
    const group = parseNormFile(readContent(file), instruments, model);
    ids.set(instrument.assessmentType, await insertNormGroup(store, { ...group, id: `example-${instrument.code.toLowerCase()}-${instrument.version}` }));
  }
  return ids;
}

/**
 * EXAMPLE_NORMS=true, an operator's choice: on a database with no norm group for an instrument,
 * the illustrative example, active for every portal. Its name and source say it is simulated and
 * not for selection, and it never fills the vendor's lists. Instances starting together insert it
 * once (a fixed id) and activate it once.
 */
export async function ensureExampleNorms(store: Store, instruments: Instruments, model: CompetenceModel, dir = EXAMPLE_NORMS_DIR): Promise<string[]> {
  const added: string[] = [];
  const empty = [];
  for (const instrument of instruments.values()) if ((await countNormGroups(store, instrument.assessmentType)) === 0) empty.push(instrument.assessmentType);
  if (empty.length === 0) return added;
  const ids = await storeExampleNorms(store, instruments, model, dir);
  for (const type of empty) {
    if (!ids.has(type)) continue;
    await activateNormGroup(store, ids.get(type)!);
    added.push(ids.get(type)!);
  }
  return added;
}

/** The demo portal's own choice: the illustrative examples, so trying Assay out shows stens in its report, with the warning. */
export async function giveDemoExampleNorms(
  store: Store,
  apiKeyId: string,
  instruments: Instruments,
  model: CompetenceModel,
  dir = EXAMPLE_NORMS_DIR,
): Promise<void> {
  for (const id of (await storeExampleNorms(store, instruments, model, dir)).values()) await setPortalNormGroup(store, apiKeyId, id);
}
