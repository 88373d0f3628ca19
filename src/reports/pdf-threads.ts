import { BUSY_RETRY_AFTER_SECONDS, Threads, type ThreadLimits } from '../platform/threads.js';
import type { ReportModel } from './model.js';

/** What a PDF thread is given: the model without its texts (each thread has them), and the stamp. */
export interface PdfTask {
  model: Omit<ReportModel, 't'>;
  generatedAt: string;
}

/** Threads end after this long without a PDF, and their memory (fonts, word layouts) with them. */
const IDLE_MS = 10 * 60_000;

/**
 * PDFs are rendered on worker threads (`pdf-worker.ts`), never on the event loop: a PDF takes
 * tens of milliseconds of CPU, and ten rendered on the loop held every tenant's requests behind
 * them. Up to `queue` wait for a thread; past that, a PDF request gets 503 with
 * Retry-After. A thread that runs out of its heap ends, its PDF fails, and another takes its place.
 */
export class PdfThreads {
  readonly #threads: Threads<PdfTask, Uint8Array>;
  #ahead = false;

  constructor(limits: ThreadLimits) {
    const busy = { message: 'Too many reports are being rendered; retry shortly', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
    this.#threads = new Threads(new URL('./pdf-worker.js', import.meta.url), limits, busy, {
      idleMs: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
  }

  /** PDFs waiting for a thread right now. */
  get queued(): number {
    return this.#threads.queued;
  }

  /** Threads running now, rendering or idle. */
  get threads(): number {
    return this.#threads.threads;
  }

  /**
   * Runs `make`, which renders a PDF, while no thread is running and no other PDF is being made
   * this way; otherwise does nothing. Its failures are left to the request that asks for that PDF.
   */
  ahead(make: () => Promise<unknown>): void {
    if (this.#ahead || this.threads > 0) return;
    this.#ahead = true;
    make()
      .catch(() => {})
      .finally(() => {
        this.#ahead = false;
      });
  }

  async render(model: ReportModel, generatedAt: string): Promise<Buffer> {
    const { t: _texts, ...rest } = model;
    const bytes = await this.#threads.run({ model: rest, generatedAt });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  close(): Promise<void> {
    return this.#threads.close();
  }
}
