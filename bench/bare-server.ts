/**
 * The ceiling: a bare node:http server that does the least the same request needs, and nothing
 * else. No Node server on this machine does this work faster.
 * - POST with JSON: reads the candidate request and answers the create envelope (201);
 * - POST /form: reads and parses a urlencoded form and answers 303, as a portal page post;
 * - GET /bytes/N?type=T: answers N bytes of type T, as a read of that size;
 * - PUT /page stores a page of HTML, which GET /page then answers, as a portal page with nothing
 *   to do.
 */
import { createServer } from 'node:http';
import { parse } from 'node:querystring';

const port = Number(process.argv[2] ?? 0);
const sized = new Map<string, Buffer>();
let page = Buffer.alloc(0);

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/page') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': page.length });
    res.end(page);
    return;
  }
  if (req.method === 'GET') {
    const url = new URL(req.url ?? '/', 'http://bare');
    const n = Math.min(Number(url.pathname.split('/')[2]) || 0, 16 * 1024 * 1024);
    const type = url.searchParams.get('type') ?? 'application/json; charset=utf-8';
    let body = sized.get(`${n}`);
    if (!body) sized.set(`${n}`, (body = Buffer.alloc(n, 'a')));
    res.writeHead(200, { 'content-type': type, 'content-length': body.length });
    res.end(body);
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    if (req.method === 'PUT' && req.url === '/page') {
      page = Buffer.from(body);
      res.writeHead(204).end();
      return;
    }
    if (req.url === '/form') {
      const form = parse(body);
      res.writeHead(303, { location: `/form?next=${typeof form.nav === 'string' ? form.nav : ''}`, 'content-length': 0 });
      res.end();
      return;
    }
    const data = JSON.parse(body) as { ExternalId: string };
    const out = JSON.stringify({ StatusCode: 201, Message: null, Data: { ExternalId: data.ExternalId } });
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
});
server.keepAliveTimeout = 72_000;
server.listen({ port, host: '127.0.0.1', backlog: 2048 }, () => process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`));
