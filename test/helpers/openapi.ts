import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dereference } from '@readme/openapi-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import createClient, { type Middleware } from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { ROOT } from '../../src/platform/paths.js';
import type { paths } from '../generated/assay-api.js';
import { authHeaders, type Credentials } from './http.js';

/** The committed types of the API, generated from /openapi.json (npm run api-types writes them). */
export const TYPES_FILE = join(ROOT, 'test', 'generated', 'assay-api.ts');
export const TYPES_HEADER = '// Generated from /openapi.json by openapi-typescript (npm run api-types). Do not edit.\n';

export async function fetchDocument(baseUrl: string): Promise<Record<string, any>> {
  const res = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(15_000) });
  if (res.status !== 200) throw new Error(`/openapi.json: ${res.status}`);
  return (await res.json()) as Record<string, any>;
}

/** TypeScript types of the document, exactly as the committed file should hold them. */
export async function typesOf(document: Record<string, any>): Promise<string> {
  return TYPES_HEADER + astToString(await openapiTS(structuredClone(document) as never, { alphabetize: true }));
}

export const committedTypes = () => readFileSync(TYPES_FILE, 'utf8');

/** The committed document itself, so that any change to the contract (a bound, a description) shows in review. */
export const SNAPSHOT_FILE = join(ROOT, 'test', 'generated', 'openapi.json');
export const snapshotOf = (document: Record<string, any>) => `${JSON.stringify(document, null, 2)}\n`;
export const committedSnapshot = () => readFileSync(SNAPSHOT_FILE, 'utf8');

/** A response that did not match what the document says about its operation and status. */
export interface Mismatch {
  operation: string;
  status: number;
  problem: string;
}

/**
 * Checks every response against the document: the status must be documented for the operation,
 * a JSON body must match that response's schema, and an error's code must be one the response
 * lists among its examples.
 */
export async function responseChecker(document: Record<string, any>) {
  const resolved = (await dereference(structuredClone(document) as never)) as Record<string, any>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators = new Map<string, ValidateFunction>();
  const mismatches: Mismatch[] = [];
  const seen: Array<{ operation: string; status: number; code?: string }> = [];

  const middleware: Middleware = {
    async onResponse({ request, response, schemaPath }) {
      const method = request.method.toLowerCase();
      const operation = `${request.method} ${schemaPath}`;
      const documented = resolved.paths?.[schemaPath]?.[method]?.responses?.[String(response.status)];
      if (!documented) {
        mismatches.push({ operation, status: response.status, problem: 'status not documented' });
        return;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!type.startsWith('application/json')) {
        if (!Object.keys(documented.content ?? {}).some((t) => type.startsWith(t)))
          mismatches.push({ operation, status: response.status, problem: `content type ${type} not documented` });
        seen.push({ operation, status: response.status });
        return;
      }
      const body = await response.clone().json();
      const media = documented.content?.['application/json'];
      if (!media?.schema) {
        mismatches.push({ operation, status: response.status, problem: 'no JSON schema documented' });
        return;
      }
      const key = `${operation} ${response.status}`;
      let validate = validators.get(key);
      if (!validate) validators.set(key, (validate = ajv.compile(media.schema)));
      if (!validate(body)) mismatches.push({ operation, status: response.status, problem: ajv.errorsText(validate.errors) });
      const code = (body as { error?: { code?: string } }).error?.code;
      if (code !== undefined && !(code in (media.examples ?? {})))
        mismatches.push({ operation, status: response.status, problem: `error code ${code} not listed` });
      seen.push({ operation, status: response.status, ...(code ? { code } : {}) });
    },
  };
  return { middleware, mismatches, seen, document: resolved };
}

/** The API through openapi-fetch, typed by the generated types, with `middleware` watching every response. */
export function typedClient(baseUrl: string, creds: Credentials | undefined, middleware?: Middleware) {
  const client = createClient<paths>({ baseUrl, headers: creds ? authHeaders(creds) : {} });
  if (middleware) client.use(middleware);
  return client;
}
