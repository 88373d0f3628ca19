import { createSocket, type RemoteInfo } from 'node:dgram';

/**
 * A DNS server on loopback UDP for tests: `answers` maps a name to its IPv4 address, names in
 * `silent` (or under a name there) get no answer at all, as a server that never answers, and any
 * other name is NXDOMAIN. AAAA questions for an answered name get no records.
 */
export async function startDnsServer(answers: Record<string, string>, silent: string[] = []) {
  const socket = createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (query: Buffer, from: RemoteInfo) => {
    const { name, type, end } = question(query);
    questions.push(name);
    if (silent.some((s) => name === s || name.endsWith(`.${s}`))) return;
    const address = answers[name];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // A response to a recursive query; NXDOMAIN for a name it does not know.
    header.writeUInt16BE(address === undefined ? 0x8183 : 0x8180, 2);
    header.writeUInt16BE(1, 4);
    const answer = address !== undefined && type === 1 ? aRecord(address) : Buffer.alloc(0);
    header.writeUInt16BE(answer.length > 0 ? 1 : 0, 6);
    socket.send(Buffer.concat([header, query.subarray(12, end), answer]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}

function question(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let at = 12;
  while (query[at]! > 0) {
    labels.push(query.toString('ascii', at + 1, at + 1 + query[at]!));
    at += query[at]! + 1;
  }
  return { name: labels.join('.').toLowerCase(), type: query.readUInt16BE(at + 1), end: at + 5 };
}

function aRecord(address: string): Buffer {
  const record = Buffer.alloc(16);
  // The name as a pointer to the question's, type A, class IN, a minute's TTL, four bytes.
  record.writeUInt16BE(0xc00c, 0);
  record.writeUInt16BE(1, 2);
  record.writeUInt16BE(1, 4);
  record.writeUInt32BE(60, 6);
  record.writeUInt16BE(4, 10);
  address.split('.').forEach((part, i) => record.writeUInt8(Number(part), 12 + i));
  return record;
}
