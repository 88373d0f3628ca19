/** A KDF thread of `kdf-pool.ts`: one password check, or one new hash (no `stored`), per task. */
import { hashPasswordSync, verifyPasswordSync } from './passwords.js';

export default function kdf(task: { password: string; stored?: string }): boolean | string {
  return task.stored === undefined ? hashPasswordSync(task.password) : verifyPasswordSync(task.password, task.stored);
}
