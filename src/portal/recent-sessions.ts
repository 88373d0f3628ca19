import { LRUCache } from 'lru-cache';
import type { Store } from '../db/database.js';
import { onePerStore } from '../db/store-caches.js';
import type { Session } from './session-store.js';

/** Answers held in all, across sessions: about 20 MB at most. */
export const RECENT_SESSION_ANSWERS = 200_000;
/** Sessions held, whatever their answers: a flood of fresh links costs a bounded few MB too. */
export const RECENT_SESSIONS_MAX = 10_000;
/**
 * How long a page's session is kept for its post. A candidate who takes longer has it read again.
 * It also bounds how long answers of a candidate erased by another process (the CLI, another
 * instance) stay in this one's memory; an erasure here forgets them at once.
 */
export const RECENT_SESSION_TTL_MS = 60_000;

/**
 * The session a questionnaire page was rendered from, kept for that page's post. A post that
 * finds it skips its own read of the session, and saves only while the assessment still reads as
 * this session did (status, expiry and activity clock; every save moves the clock, and the
 * candidate's details only ever move forward): a changed assessment fails the save, and the post
 * reads afresh. Each session serves one post at most.
 */
export class RecentSessions {
  readonly #sessions = new LRUCache<string, Session>({
    max: RECENT_SESSIONS_MAX,
    maxSize: RECENT_SESSION_ANSWERS,
    sizeCalculation: (s) => s.answers.size + 1,
    ttl: RECENT_SESSION_TTL_MS,
    // Purged on a timer, not only when next read: answers leave memory on time.
    ttlAutopurge: true,
  });

  remember(session: Session): void {
    this.#sessions.set(session.assessment.analysis_id, session);
  }

  take(analysisId: string): Session | undefined {
    // peek: an entry about to go needs no move to the front of the LRU.
    const session = this.#sessions.peek(analysisId);
    if (session) this.#sessions.delete(analysisId);
    return session;
  }

  forgetCandidate(externalId: string): void {
    for (const [id, session] of this.#sessions.entries()) if (session.candidate.external_id === externalId) this.#sessions.delete(id);
  }

  /** Sessions kept. */
  get size(): number {
    return this.#sessions.size;
  }
}

/** The recent sessions of one store. */
export const recentSessions: (store: Store) => RecentSessions = onePerStore(() => new RecentSessions());
