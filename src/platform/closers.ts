/**
 * When a resource closes: the doors (listeners, whose requests use the rest) first, then the
 * workers, then the engines they all use (threads, the store).
 */
export type CloseStage = 'doors' | 'workers' | 'engines';

const STAGES: readonly CloseStage[] = ['doors', 'workers', 'engines'];

/**
 * The one list of what a process has opened: each resource adds its close as it opens, and a start
 * that fails part-way and a stop both close through it. By stage in order, within a stage the newest
 * first. Every close runs, whatever one before it threw; the failure (all of them, if several) is
 * thrown at the end. Each close runs once: a second `closeAll` has nothing left to close.
 */
export class Closers {
  readonly #entries: { stage: CloseStage; close: () => unknown }[] = [];

  add(stage: CloseStage, close: () => unknown): void {
    this.#entries.push({ stage, close });
  }

  async closeAll(): Promise<void> {
    const entries = this.#entries.splice(0);
    const failures: unknown[] = [];
    for (const stage of STAGES) {
      for (const entry of entries.filter((e) => e.stage === stage).reverse()) {
        try {
          await entry.close();
        } catch (err) {
          failures.push(err);
        }
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, `${failures.length} resources failed to close`);
  }
}
