import type { LifecycleStatus as AssessmentStatus } from '../../domain/status.js';
import type { Instrument, Item } from './types.js';

/** Where a candidate stands; everything the portal decides from is in the database. */
export interface Progress {
  /** The effective status: Expired already worked out from the expiry. */
  status: AssessmentStatus;
  needsToUpdateData: boolean;
  gender: number;
  /** The candidate answered the gender question, "prefer not to say" included. */
  genderAsked: boolean;
  answers: ReadonlyMap<string, number>;
}

export type Step =
  | { kind: 'start' }
  | { kind: 'details' }
  | { kind: 'gender' }
  | { kind: 'questions'; page: number }
  | { kind: 'confirm' }
  | { kind: 'completed' }
  | { kind: 'expired' }
  | { kind: 'cancelled' };

export function pageCount(instrument: Instrument): number {
  return Math.ceil(instrument.items.length / instrument.itemsPerPage);
}

/** Items on 1-based `page`. */
export function pageItems(instrument: Instrument, page: number): Item[] {
  const start = (page - 1) * instrument.itemsPerPage;
  return instrument.items.slice(start, start + instrument.itemsPerPage);
}

/** The first page with an unanswered item; the last page when all are answered (ready to finish). */
export function resumePage(instrument: Instrument, answers: ReadonlyMap<string, number>): number {
  const index = instrument.items.findIndex((item) => !answers.has(item.id));
  return index === -1 ? pageCount(instrument) : Math.floor(index / instrument.itemsPerPage) + 1;
}

/**
 * The step a candidate must be on: update details first (when asked), then gender (when
 * unknown and not yet asked), then the questionnaire from the first unanswered page, then the
 * confirmation before finishing. Resuming on another device lands on the same step because it
 * is derived, not remembered. A closed assessment (completed, expired, cancelled) has only its
 * closing page.
 */
export function currentStep(instrument: Instrument, p: Progress): Step {
  if (p.status === 'Completed') return { kind: 'completed' };
  if (p.status === 'Cancelled') return { kind: 'cancelled' };
  if (p.status === 'Expired') return { kind: 'expired' };
  if (p.status === 'Created') return { kind: 'start' };
  if (p.needsToUpdateData) return { kind: 'details' };
  if (p.gender === 0 && !p.genderAsked) return { kind: 'gender' };
  if (isComplete(instrument, p.answers)) return { kind: 'confirm' };
  return { kind: 'questions', page: resumePage(instrument, p.answers) };
}

/** A questionnaire page may be visited if it is at or before the resume page (back navigation). */
export function mayVisitPage(instrument: Instrument, p: Progress, page: number): boolean {
  const step = currentStep(instrument, p);
  const last = step.kind === 'questions' ? step.page : step.kind === 'confirm' ? pageCount(instrument) : 0;
  return Number.isInteger(page) && page >= 1 && page <= last;
}

/**
 * Reads one page's answers from form fields named `a_<itemId>`. Returns the valid answers and
 * the ids of items left unanswered; a value outside the response scale counts as unanswered.
 */
export function readPageAnswers(instrument: Instrument, page: number, form: Record<string, unknown>): { answers: Map<string, number>; missing: string[] } {
  const { min, max } = instrument.responseScale;
  const answers = new Map<string, number>();
  const missing: string[] = [];
  for (const item of pageItems(instrument, page)) {
    const raw = form[`a_${item.id}`];
    const value = typeof raw === 'string' && /^\d{1,2}$/.test(raw) ? Number(raw) : NaN;
    if (value >= min && value <= max) answers.set(item.id, value);
    else missing.push(item.id);
  }
  return { answers, missing };
}

export function isComplete(instrument: Instrument, answers: ReadonlyMap<string, number>): boolean {
  return instrument.items.every((item) => answers.has(item.id));
}
