import { createGreenhouseKey } from '../../src/tenancy/greenhouse-keys-store.js';
import { newGreenhouseKey } from '../../src/security/tokens.js';
import type { IssuedCredentials } from '../../src/tenancy/provision.js';
import { basic, request } from './http.js';
import type { TestServer } from './server.js';

/** send_test's body, as Greenhouse's documentation's own example has it, with the callback url pointed where the test says. */
export function docsSendTest(url: string, overrides: { partner_test_id?: string; person?: string; email?: string } = {}) {
  return {
    partner_test_id: overrides.partner_test_id ?? '0',
    candidate: {
      first_name: 'Harry',
      last_name: 'Potter',
      preferred_name: 'The Chosen One',
      resume_url: 'https://hogwarts.com/resume',
      phone_number: '123-456-7890',
      email: overrides.email ?? 'hpotter@hogwarts.edu',
      greenhouse_profile_url: `https://app.greenhouse.io/people/${overrides.person ?? '17681532'}?application_id=26234709`,
    },
    sent_by: 'test_sender@example.org',
    url,
  };
}

/** A Greenhouse key for the tenant's portal, written straight to the store (the CLI that issues them has its own test). */
export async function greenhouseKeyFor(server: TestServer, creds: Pick<IssuedCredentials, 'tenantId' | 'apiKeyId'>): Promise<string> {
  const k = newGreenhouseKey();
  await createGreenhouseKey(server.running.deps.store, { tenantId: creds.tenantId, apiKeyId: creds.apiKeyId, prefix: k.prefix, hash: k.hash });
  return k.key;
}

/** Calls the Greenhouse door of `serverUrl` as Greenhouse does: the key as Basic username, an empty password; `from` another loopback address. */
export function greenhouseClient(serverUrl: string, key: string) {
  return (path: string, init: { method?: string; body?: unknown; from?: string } = {}) =>
    request(`${serverUrl}/integrations/greenhouse${path}`, { ...init, headers: { authorization: basic(key, '') } });
}
