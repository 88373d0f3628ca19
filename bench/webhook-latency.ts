import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { csrfToken, FormClient, itemNames, startPath } from '../test/helpers/forms.js';
import { percentile } from './stats.js';

interface Prepared {
  id: string;
  client: FormClient;
  path: string;
  fields: Record<string, string>;
}

/**
 * Time from sending the form post that completes an assessment (the confirmation) to the webhook
 * POST arriving at a local receiver, over `count` completions made one after another.
 */
export async function webhookLatency(
  baseUrl: string,
  api: { createCandidate(b: object): Promise<{ status: number }>; createAssessment(b: object): Promise<{ status: number; body: any }> },
  count: number,
): Promise<{ p50: number; p99: number; count: number }> {
  const waiting = new Map<string, (at: number) => void>();
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => {
      const at = performance.now();
      waiting.get((JSON.parse(body) as { Analysis_Id: string }).Analysis_Id)?.(at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const prepared: Prepared[] = [];
  for (let n = 0; n < count; n++) {
    const externalId = `latency-${process.pid}-${Date.now()}-${n}`;
    await api.createCandidate({ ExternalId: externalId, Email: 'ada@example.com', FirstName: 'Ada', LastName: 'Lovelace', Preposition: '', Gender: 2 });
    const a = await api.createAssessment({ ExternalId: externalId, AssessmentType: 0, WebhookUrl: hook });
    const id = a.body.Data.AnalysisId as string;
    const client = new FormClient(baseUrl);
    let res = await client.submit(startPath(id), {});
    for (;;) {
      const page = await client.get(res.location!);
      const fields: Record<string, string> = { _csrf: csrfToken(page.html) };
      for (const name of itemNames(page.html)) fields[name] = '3';
      res = await client.post(res.location!, { ...fields, nav: /value="finish"/.test(page.html) ? 'finish' : 'next' });
      // The last page leads to the confirmation; confirming is the post that completes.
      if (res.location?.endsWith('/confirm')) {
        const confirm = await client.get(res.location);
        prepared.push({ id, client, path: res.location, fields: { _csrf: csrfToken(confirm.html), nav: 'finish' } });
        break;
      }
    }
  }

  const latencies: number[] = [];
  for (const p of prepared) {
    const arrived = new Promise<number>((resolve) => waiting.set(p.id, resolve));
    const sent = performance.now();
    await p.client.post(p.path, p.fields);
    latencies.push((await arrived) - sent);
  }
  receiver.close();
  return { p50: Math.round(percentile(latencies, 50) * 10) / 10, p99: Math.round(percentile(latencies, 99) * 10) / 10, count };
}
