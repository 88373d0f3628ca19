import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startAssay, runCliJson } from './dist/bench/processes.js';
const ticks = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const dataDir = mkdtempSync(join(tmpdir(), 'cpu-'));
const env = { DATA_DIR: dataDir, DEMO_TENANT: 'false', LOG_LEVEL: process.env.LL ?? 'info' };
const c = runCliJson(['tenant', 'create', '--name', 'b', '--portal-domain', 'http://x.test', '--json'], env);
const a = await startAssay(env);
const headers = { 'content-type': 'application/json', authorization: 'Basic ' + Buffer.from(`${c.username}:${c.password}`).toString('base64'), 'api-key': c.apiKey };
const path = process.env.P ?? '/api/anonymous/candidate';
for (let i = 0; i < 2; i++) {
  const t0 = ticks(a.child.pid);
  const r = await autocannon({ url: a.url + path, method: path.includes('candidate') ? 'POST' : 'GET', headers, body: `{"ExternalId":"c-${i}-[<id>]","Email":"ada@example.com","FirstName":"Ada","LastName":"Lovelace","Preposition":"","Gender":2}`, idReplacement: true, connections: 50, duration: 5 });
  const cpu = ticks(a.child.pid) - t0; const n = r.requests.total;
  console.log(process.env.LABEL ?? '', 'rps', Math.round(r.requests.average), 'cpu us/req', (cpu * 1000 / n).toFixed(1), 'non2xx', r.non2xx);
}
await a.stop();
