/**
 * The framework's floor: Fastify 5 with Assay's request log (one line per request, through
 * Assay's own logger and destination, to /dev/null as in the benchmark) and nothing else,
 * answering N bytes on GET /bytes/N as the bare server does. No Fastify route of Assay's can be
 * faster on this machine: the results endpoint adds authentication, a rate limit, a database
 * read, metrics and security headers on top of it.
 */
import { openSync } from 'node:fs';
import Fastify from 'fastify';
import { genReqId, logDestination, loggerOptions, OneLinePerRequest } from '../src/http/plugins/logging.js';

const logs = logDestination(openSync('/dev/null', 'w'));
const app = Fastify({ logger: loggerOptions({ logLevel: 'info' }, logs.stream), logController: new OneLinePerRequest(), genReqId, keepAliveTimeout: 72_000 });
const sized = new Map<number, Buffer>();

app.get<{ Params: { n: string } }>('/bytes/:n', async (request, reply) => {
  const n = Math.min(Number(request.params.n) || 0, 16 * 1024 * 1024);
  let body = sized.get(n);
  if (!body) sized.set(n, (body = Buffer.alloc(n, 'a')));
  return reply.type('application/json; charset=utf-8').send(body);
});

const address = await app.listen({ port: 0, host: '127.0.0.1', backlog: 2048 });
process.stdout.write(`listening ${new URL(address).port}\n`);
