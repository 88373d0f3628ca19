import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

/** The repository root, whether running from src via a loader or from the compiled dist/src. */
export const ROOT = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../' : '../../', import.meta.url));

export const BUILT_IN_CONTENT_DIR = join(ROOT, 'content', 'instruments');
export const COMPETENCES_FILE = join(ROOT, 'content', 'competences', 'competences.json');
export const EXAMPLE_NORMS_DIR = join(ROOT, 'content', 'norms');
export const INTERPRETATIONS_FILE = join(ROOT, 'content', 'interpretations', 'scales.json');
