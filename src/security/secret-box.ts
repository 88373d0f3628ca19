import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDir, privateFile } from '../platform/private-files.js';

/** AES-256-GCM for secrets Assay must use later (webhook passwords). Format: v1.iv.tag.ciphertext. */
export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    this.#key = key;
  }

  /** `context` is bound as associated data: a ciphertext moved to another row will not open. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  /** An independent key for another purpose (CSRF tokens, say), derived with HKDF. */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), `assay:${purpose}`, 32));
  }

  open(sealed: string, context: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unrecognised sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * The server key: ENCRYPTION_KEY when set, else DATA_DIR/secret.key, generated once (mode 0600).
 * Instances sharing a PostgreSQL database must share ENCRYPTION_KEY.
 */
export function loadServerKey(configured: string | undefined, dataDir: string): Buffer {
  privateDir(dataDir);
  if (configured) return Buffer.from(configured, 'base64');
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    // Write aside, then link into place: a racing process sees no file or a whole one.
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
    try {
      linkSync(temp, file);
    } catch (error) {
      // Another process (the CLI, a second instance) won the race; use its key.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temp);
    }
  }
  privateFile(file, false);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
  return key;
}
