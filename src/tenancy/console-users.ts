import { consoleSetPasswordPath } from '../domain/console-paths.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Store } from '../db/database.js';
import { newSecretToken, sha256 } from '../security/tokens.js';
import {
  disableConsoleUser,
  findConsoleUserByEmail,
  findPasswordLink,
  insertConsoleUser,
  listConsoleUsers,
  replacePasswordLink,
  usePasswordLink,
  type Actor,
  type ConsoleRole,
  type ConsoleUserRow,
} from './console-users-store.js';

export type { Actor, ConsoleRole, ConsoleUserRow } from './console-users-store.js';

/** The operator at the CLI. */
export const OPERATOR: Actor = { userId: null, address: 'cli' };

export const CONSOLE_ROLES: readonly ConsoleRole[] = ['admin', 'recruiter', 'viewer'];
export const MIN_PASSWORD_LENGTH = 12;
/** Long enough for any passphrase, short enough that a post cannot make the KDF chew megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;
export const PASSWORD_LINK_TTL_MS = 24 * 3600 * 1000;

/** A rule a console user's data broke, in words for the operator or the person. */
export class ConsoleUserError extends Error {
  override name = 'ConsoleUserError';
}

const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]+\.[^\s@<>"]{2,}$/;

/** Lower-cased and trimmed; refused when it is not an address. */
export function normalEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !EMAIL.test(e)) throw new ConsoleUserError(`"${email}" is not an e-mail address`);
  return e;
}

export function checkRole(role: string): ConsoleRole {
  if (!(CONSOLE_ROLES as readonly string[]).includes(role)) throw new ConsoleUserError(`The role must be one of ${CONSOLE_ROLES.join(', ')}, not "${role}"`);
  return role as ConsoleRole;
}

/** Why a new password is refused, or undefined when it will do. Characters, not bytes, are counted. */
export function passwordProblem(password: string): 'tooShort' | 'tooLong' | undefined {
  const length = [...password.normalize('NFC')].length;
  if (length < MIN_PASSWORD_LENGTH) return 'tooShort';
  if (length > MAX_PASSWORD_LENGTH) return 'tooLong';
  return undefined;
}

export interface IssuedLink {
  email: string;
  role: ConsoleRole;
  setPasswordUrl: string;
}

function newLink(now: Date) {
  const token = newSecretToken();
  return { token, tokenHash: sha256(token), expiresAt: new Date(now.getTime() + PASSWORD_LINK_TTL_MS).toISOString() };
}

/** A new console user of `tenantId`, with a one-time link (24 hours) on `origin` to set the password. */
export async function createConsoleUser(
  store: Store,
  tenantId: string,
  email: string,
  role: string,
  origin: string,
  actor: Actor = OPERATOR,
  now = new Date(),
): Promise<IssuedLink> {
  const user = { tenantId, email: normalEmail(email), role: checkRole(role) };
  const link = newLink(now);
  try {
    await insertConsoleUser(store, user, link, actor, now.toISOString());
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConsoleUserError(`A console user with the e-mail address ${user.email} exists already`);
    throw err;
  }
  return { email: user.email, role: user.role, setPasswordUrl: origin + consoleSetPasswordPath(link.token) };
}

async function existing(store: Store, email: string): Promise<ConsoleUserRow> {
  const user = await findConsoleUserByEmail(store, normalEmail(email));
  if (!user) throw new ConsoleUserError(`No console user with the e-mail address ${email.trim().toLowerCase()}`);
  return user;
}

/** A new one-time link for the user; earlier unused links stop working. The password stays until the link is used. */
export async function resetConsoleUser(store: Store, email: string, origin: string, actor: Actor = OPERATOR, now = new Date()): Promise<IssuedLink> {
  const user = await existing(store, email);
  const link = newLink(now);
  await replacePasswordLink(store, user, link, actor, now.toISOString());
  return { email: user.email, role: user.role, setPasswordUrl: origin + consoleSetPasswordPath(link.token) };
}

/** Disables the user and ends their sessions at once. */
export async function disableConsoleUserByEmail(store: Store, email: string, actor: Actor = OPERATOR, now = new Date()): Promise<ConsoleUserRow> {
  const user = await existing(store, email);
  await disableConsoleUser(store, user, actor, now.toISOString());
  return user;
}

export { listConsoleUsers, findConsoleUserByEmail };

/** The user a set-password link is for, while it is unused and within its 24 hours. */
export function userOfLink(store: Store, token: string, now = new Date()): Promise<ConsoleUserRow | undefined> {
  return findPasswordLink(store, sha256(token), now.toISOString());
}

/**
 * Sets the password through a one-time link: `hash` makes the stored form (the KDF pool's, on the
 * server). Refuses a password against the rules before the KDF runs. Ends the user's other sessions.
 */
export async function setPasswordWithLink(
  store: Store,
  token: string,
  password: string,
  hash: (password: string) => Promise<string>,
  address: string | null,
  now = new Date(),
): Promise<ConsoleUserRow | undefined> {
  if (passwordProblem(password)) throw new ConsoleUserError(`A password has ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`);
  if (!(await userOfLink(store, token, now))) return undefined;
  return usePasswordLink(store, sha256(token), await hash(password), address, new Date().toISOString());
}
