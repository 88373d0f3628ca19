import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { Agent, request } from 'undici';
import { authHeaders, candidate } from '../test/helpers/http.js';
import { peakRssMb, storm } from '../test/helpers/load.js';
import { runCliJson, startAssay } from './processes.js';

export interface HostileSummary {
  /** The other tenant's create-candidate latency with nobody attacking, ms. */
  quiet: { p50: number; p99: number; rps: number };
  /** The same while wrong-password bursts run back to back, ms. */
  underBurst: { p50: number; p99: number; rps: number; bad: number };
  bursts: number;
  /** Verdicts (401) per 200-request burst: the rest were refused before the KDF. */
  verdicts: { min: number; max: number };
  /** Peak RSS before and after 1,500 concurrent 60 KB bodies, MB; and how the storm was answered. */
  storm: { rssBefore: number; rssAfter: number; statuses: Record<string, number>; errors: number };
}

const BURST = 200;

/**
 * The hostile-load figures: wrong-password bursts against one tenant while another works, then
 * a storm of large bodies. Each burst targets its own username from its own address, so every
 * burst meets an unlocked username, the worst case for the KDF.
 */
export async function hostile(env: Record<string, string>, options: { duration: number; bursts: number; storm: number }): Promise<HostileSummary> {
  const assay = await startAssay(env);
  try {
    const victim = runCliJson(['tenant', 'create', '--name', 'victim', '--portal-domain', 'http://127.0.0.1', '--json'], env);
    const other = runCliJson(['tenant', 'create', '--name', 'other', '--portal-domain', 'http://127.0.0.1', '--json'], env);
    const usernames = Array.from(
      { length: options.bursts },
      (_, i) => runCliJson(['user', 'create', '--tenant', 'victim', '--username', `victim-${i}`, '--json'], env).username!,
    );
    const otherCreds = { username: other.username!, password: other.password!, apiKey: other.apiKey! };
    const headers = { ...authHeaders(otherCreds), 'content-type': 'application/json' };
    const body = (tag: string) => `{"ExternalId":"hostile-${tag}-[<id>]","Email":"ada@example.com","FirstName":"Ada","LastName":"Lovelace","Preposition":""}`;
    const load = (tag: string) =>
      autocannon({
        url: `${assay.url}/api/anonymous/candidate`,
        method: 'POST',
        headers,
        body: body(tag),
        idReplacement: true,
        connections: 10,
        duration: options.duration,
      });

    await load('warm');
    const quiet = await load('quiet');

    const verdicts: number[] = [];
    let attacking = true;
    const attack = (async () => {
      for (let i = 0; i < usernames.length && attacking; i++) {
        const agent = new Agent({ localAddress: `127.0.50.${i + 1}` });
        const wrong = (n: number) => ({
          ...authHeaders({ username: usernames[i]!, password: `wrong-${n}`, apiKey: victim.apiKey! }),
          'content-type': 'application/json',
        });
        const replies = await Promise.all(
          Array.from({ length: BURST }, async (_, n) => {
            const res = await request(`${assay.url}/api/anonymous/candidate`, {
              method: 'POST',
              headers: wrong(n),
              body: JSON.stringify(candidate({ ExternalId: `burst-${i}-${n}` })),
              dispatcher: agent,
            });
            await res.body.dump();
            return res.statusCode;
          }),
        );
        await agent.close();
        verdicts.push(replies.filter((s) => s === 401).length);
      }
    })();
    const underBurst = await load('burst');
    attacking = false;
    await attack;

    const rssBefore = assay.peakRssMb();
    const agents = Array.from({ length: 10 }, (_, i) => new Agent({ localAddress: `127.0.51.${i + 1}`, connections: Math.ceil(options.storm / 10) }));
    const big = 'x'.repeat(60 * 1024 - 200);
    const result = await storm(
      agents,
      options.storm,
      `${assay.url}/api/anonymous/candidate`,
      (i) => JSON.stringify({ ...candidate({ ExternalId: `storm-${i}` }), Pad: big }),
      headers,
    );
    await Promise.all(agents.map((a) => a.close()));
    if (assay.child.exitCode !== null) throw new Error('Assay died in the body storm');

    return {
      quiet: { p50: quiet.latency.p50, p99: quiet.latency.p99, rps: Math.round(quiet.requests.average) },
      underBurst: {
        p50: underBurst.latency.p50,
        p99: underBurst.latency.p99,
        rps: Math.round(underBurst.requests.average),
        bad: underBurst.errors + underBurst.timeouts + underBurst.non2xx,
      },
      bursts: verdicts.length,
      verdicts: { min: Math.min(...verdicts), max: Math.max(...verdicts) },
      storm: { rssBefore, rssAfter: peakRssMb(assay.child.pid!), statuses: Object.fromEntries(result.statuses), errors: result.errors.length },
    };
  } finally {
    await assay.stop();
  }
}

/** The row a hostile run adds to bench/RESULTS.md. */
export function hostileRow(summary: HostileSummary, pgMode: boolean): Array<string | number> {
  return [
    new Date().toISOString().slice(0, 10),
    `${cpus().length} cores, Node ${process.versions.node}`,
    `\`npm run bench -- ${process.argv.slice(2).join(' ')}\``,
    pgMode ? 'PostgreSQL' : 'SQLite',
    `${summary.quiet.p50} / ${summary.quiet.p99}`,
    `${summary.underBurst.p50} / ${summary.underBurst.p99}`,
    summary.bursts,
    `${summary.verdicts.min}–${summary.verdicts.max}`,
    `${summary.storm.rssBefore} → ${summary.storm.rssAfter}`,
    Object.entries(summary.storm.statuses)
      .map(([k, v]) => `${v}×${k}`)
      .join(', '),
  ];
}
