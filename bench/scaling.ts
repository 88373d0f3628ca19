import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startAssay, type Child } from './processes.js';
import { insertRow } from './results-rows.js';

/**
 * --instances N (with --pg): create-candidate through one instance, then through N instances
 * on the same database with the same total connections, alternating, each round.
 */
export async function scaling(
  env: Record<string, string>,
  creds: Record<string, string>,
  {
    pgMode,
    instances,
    connections,
    duration,
    rounds,
    smoke,
  }: { pgMode: boolean; instances: number; connections: number; duration: number; rounds: number; smoke: boolean },
): Promise<void> {
  if (!pgMode) throw new Error('--instances needs --pg: several instances share one PostgreSQL');
  const servers: Child[] = [];
  const dirs = Array.from({ length: instances }, () => mkdtempSync(join(tmpdir(), 'assay-bench-i-')));
  for (const dir of dirs) servers.push(await startAssay({ ...env, DATA_DIR: dir }));
  const headers = {
    'content-type': 'application/json',
    authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
    'api-key': creds.apiKey!,
  };
  const body = (tag: string) => `{"ExternalId":"scale-${tag}-[<id>]","Email":"ada@example.com","FirstName":"Ada","LastName":"Lovelace","Preposition":""}`;
  const across = async (count: number, tag: string) => {
    const chosen = servers.slice(0, count);
    const runs = chosen.map((s, i) =>
      autocannon({
        url: `${s.url}/api/anonymous/candidate`,
        method: 'POST',
        headers,
        body: body(`${tag}-${i}`),
        idReplacement: true,
        connections: Math.ceil(connections / count),
        duration,
      }),
    );
    const results = await Promise.all(runs);
    return { rps: results.reduce((a, r) => a + r.requests.average, 0), bad: results.reduce((a, r) => a + r.errors + r.timeouts + r.non2xx, 0) };
  };
  await across(instances, 'warm');
  const one: number[] = [];
  const many: number[] = [];
  let bad = 0;
  for (let round = 1; round <= rounds; round++) {
    const a = await across(1, `one-${round}`);
    const b = await across(instances, `many-${round}`);
    one.push(a.rps);
    many.push(b.rps);
    bad += a.bad + b.bad;
    process.stderr.write(`round ${round}: 1 instance ${Math.round(a.rps)} req/s, ${instances} instances ${Math.round(b.rps)} req/s\n`);
  }
  for (const s of servers) await s.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const summary = { one: Math.round(mean(one)), many: Math.round(mean(many)), instances, scale: mean(many) / mean(one), bad };
  process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  if (!smoke) {
    insertRow('<!-- scaling -->', [
      new Date().toISOString().slice(0, 10),
      `${cpus().length} cores, Node ${process.versions.node}`,
      `\`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
      summary.one,
      `${summary.many} (${instances} instances)`,
      `${summary.scale.toFixed(2)}x`,
      bad,
    ]);
  }
}
