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
 * Retry-After. Tenants share them: one tenant holds at most half of the places the others leave
 * (past that, 429), and a freed thread goes to the tenants in turn, so one tenant's burst neither
 * refuses nor holds up another's PDF. A thread that runs out of its heap ends, its PDF fails, and
 * another takes its place.
 */
export class PdfThreads {
  readonly #threads: Threads<PdfTask, Uint8Array>;
  #ahead = false;

  /** `worker`: the file a thread renders with; tests give one that holds its thread until told. */
  constructor(limits: ThreadLimits, worker = new URL('./pdf-worker.js', import.meta.url)) {
    const busy = { message: 'Too many reports are being rendered; retry shortly', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
    const overShare = { message: "Too many of this account's reports are waiting to be rendered; retry shortly", retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
    this.#threads = new Threads(worker, limits, busy, {
      idleMs: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      overShare,
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

  /** Renders `model` on a thread, in the line of `tenantId`: the tenant whose assessment it is. */
  async render(model: ReportModel, generatedAt: string, tenantId: string): Promise<Buffer> {
    const { t: _texts, ...rest } = model;
    const bytes = await this.#threads.run({ model: rest, generatedAt }, tenantId);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  close(): Promise<void> {
    return this.#threads.close();
  }
}
