import type { Deps } from '../app-types.js';
import type { DB } from '../db/schema.js';
import type { Kysely } from 'kysely';
import { sendsInFlight } from '../mail/sends.js';
import { deleteCandidate, type Erased, type ErasedBy } from './erasure-store.js';

/**
 * Erases a candidate and everything about them: their fields, every assessment with its answers,
 * page times, scores, report nonce (so share links die) and webhook credentials, the webhook
 * outcomes, and the mail log with every address it held. An audit row keeps when, by whom and how
 * much, with no personal data. Every cache on the store forgets the candidate. Mail this process
 * has on its way to the candidate is stopped, or waited for once past its last check, so nothing
 * more is sent after this returns (src/mail/sends.ts). The ExternalId is free to use again.
 * `due` is the retention sweep's check, made again inside the erasing transaction.
 */
export async function eraseCandidate(
  deps: Pick<Deps, 'store'>,
  externalId: string,
  by: ErasedBy,
  due?: (trx: Kysely<DB>, candidate: { created_at: string }, externalId: string) => Promise<boolean>,
): Promise<Erased | undefined> {
  const { store } = deps;
  const erased = await deleteCandidate(store, externalId, by, due);
  if (!erased) return undefined;
  store.caches.forgetCandidate(externalId);
  await sendsInFlight(store).settle(erased.ids);
  await store.scrub();
  return { assessments: erased.assessments, answers: erased.answers };
}
