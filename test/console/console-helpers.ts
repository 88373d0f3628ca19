import assert from 'node:assert/strict';
import { runCli } from '../helpers/cli.js';
import { csrfToken, FormClient, type Page } from '../helpers/forms.js';

/** `bin/assay console-user create … --json`: the one-time link's path on the test server, and what the CLI printed. */
export async function createConsoleUser(env: Record<string, string>, tenant: string, email: string, role = 'recruiter') {
  const out = await runCli(['console-user', 'create', '--tenant', tenant, '--email', email, '--role', role, '--json'], env);
  assert.equal(out.code, 0, out.stderr);
  const printed = JSON.parse(out.stdout) as { email: string; role: string; setPasswordUrl: string };
  return { printed, path: new URL(printed.setPasswordUrl).pathname };
}

/** Sets the password through the link's form; the answer to the post. */
export async function setPassword(client: FormClient, linkPath: string, password: string): Promise<Page> {
  return client.submit(linkPath, { password });
}

/** Posts the sign-in form with the page's own token. */
export async function signIn(client: FormClient, email: string, password: string): Promise<Page> {
  return client.submit('/console/login', { email, password });
}

/** Posts the sign-out button of the home page. */
export async function signOut(client: FormClient): Promise<Page> {
  const home = await client.get('/console');
  assert.equal(home.status, 200, 'signed in before signing out');
  return client.post('/console/logout', { _csrf: csrfToken(home.html) });
}

/** A user made with the CLI, with a password set through the link, and a browser of their own signed in. */
export async function signedInUser(base: string, env: Record<string, string>, tenant: string, email: string, password: string, role = 'recruiter') {
  const { path } = await createConsoleUser(env, tenant, email, role);
  const client = new FormClient(base);
  const set = await setPassword(client, path, password);
  assert.equal(set.status, 303, set.html.slice(0, 300));
  const res = await signIn(client, email, password);
  assert.equal(res.status, 303, res.html.slice(0, 300));
  assert.equal(res.location, '/console');
  return client;
}
