/**
 * `npm run api-types`: writes test/generated/assay-api.ts and the snapshot test/generated/openapi.json from a
 * running server's /openapi.json. The test api/openapi fails while either differs from what the server documents.
 */
import { writeFileSync } from 'node:fs';
import { fetchDocument, SNAPSHOT_FILE, snapshotOf, TYPES_FILE, typesOf } from './helpers/openapi.js';
import { startServer } from './helpers/server.js';

const server = await startServer('sqlite');
try {
  const document = await fetchDocument(server.url);
  writeFileSync(TYPES_FILE, await typesOf(document));
  writeFileSync(SNAPSHOT_FILE, snapshotOf(document));
  process.stdout.write(`wrote ${TYPES_FILE} and ${SNAPSHOT_FILE}\n`);
} finally {
  await server.stop();
}
