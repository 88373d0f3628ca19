/**
 * `npm run api-types`: writes test/generated/assay-api.ts from a running server's /openapi.json.
 * The test api/openapi fails while the committed file differs from what the server documents.
 */
import { writeFileSync } from 'node:fs';
import { fetchDocument, TYPES_FILE, typesOf } from './helpers/openapi.js';
import { startServer } from './helpers/server.js';

const server = await startServer('sqlite');
try {
  writeFileSync(TYPES_FILE, await typesOf(await fetchDocument(server.url)));
  process.stdout.write(`wrote ${TYPES_FILE}\n`);
} finally {
  await server.stop();
}
