/**
 * A PDF thread's file for tests: renders as `src/reports/pdf-worker.ts` does, but until the test
 * opens the gate (`pdf-gate.ts`) each job says it is held and waits, keeping its thread busy.
 */
import render from '../../src/reports/pdf-worker.js';
import type { PdfTask } from '../../src/reports/pdf-threads.js';
import { PDF_GATE_CHANNEL } from './pdf-gate.js';

const channel = new BroadcastChannel(PDF_GATE_CHANNEL);
const opened = new Promise<void>((resolve) => {
  channel.onmessage = (event) => {
    if ((event as MessageEvent).data === 'open') resolve();
  };
});
let open = false;
void opened.then(() => (open = true));

export default async function gated(task: PdfTask): Promise<Uint8Array> {
  if (!open) {
    channel.postMessage('held');
    await opened;
  }
  return render(task);
}
