/**
 * The ceiling: a bare node:http server that reads the same candidate request and answers the
 * same envelope, with nothing else. No Node server on this machine does this work faster.
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const data = JSON.parse(body) as { ExternalId: string };
    const out = JSON.stringify({ StatusCode: 201, Message: null, Data: { ExternalId: data.ExternalId } });
    res.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`));
