/** The channel between a test and its PDF threads running `gated-pdf-worker.ts`. */
export const PDF_GATE_CHANNEL = 'assay-test-pdf-gate';

/** The file a suite's server gives its PDF threads (ServerOptions.pdfWorker) to hold them until `open`. */
export const GATED_PDF_WORKER = new URL('./gated-pdf-worker.js', import.meta.url);

/**
 * The test's side of the gate: `held` resolves once a PDF thread holds a job at the gate;
 * `open` lets it and every later job render. Closed at the end, so the process can exit.
 */
export class PdfGate {
  readonly #channel = new BroadcastChannel(PDF_GATE_CHANNEL);
  readonly held: Promise<void>;

  constructor() {
    this.held = new Promise((resolve) => {
      this.#channel.onmessage = (event) => {
        if ((event as MessageEvent).data === 'held') resolve();
      };
    });
  }

  open(): void {
    this.#channel.postMessage('open');
  }

  close(): void {
    this.#channel.close();
  }
}
