/** A KDF thread of `kdf-pool.ts`: one password check per task. */
import { verifyPasswordSync } from './passwords.js';

export default function verify(task: { password: string; stored: string }): boolean {
  return verifyPasswordSync(task.password, task.stored);
}
