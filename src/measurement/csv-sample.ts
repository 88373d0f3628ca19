import type { Instrument, Language } from './instruments/types.js';
import { scoreCompletion } from './completion.js';
import type { SampleMember } from './norm-groups.js';
import type { CompetenceModel } from './types.js';
import { CsvError, parseCsv } from './csv.js';

/** Columns a CSV of item responses may hold besides one per item (docs/RESULTS.md, "Norm groups"). */
export const OPTIONAL_COLUMNS = ['gender', 'age', 'language'] as const;

/** What a CSV sample holds besides its members: who was left out and why, and its make-up. */
export interface CsvSample {
  members: SampleMember[];
  /** Respondents read, before any exclusion. */
  read: number;
  /** Respondents left out because they took the questionnaire in another language than the group's. */
  otherLanguage: number;
  /** Per member: the gender (API Gender code) and age the file gives, where it has the columns. */
  about: Array<{ gender?: number; age?: number }>;
  hasGender: boolean;
  hasAge: boolean;
}

const MAX_PROBLEMS = 10;

/**
 * Members of a norm sample from a CSV of item responses: a header row of item ids (every item of
 * the instrument, once, in any order) and the optional columns, then one respondent per row.
 * Each row goes through the checks and scoring a completed assessment goes through: every item
 * answered with a point of the instrument's response scale, then scoreCompletion, whose integrity
 * flags leave a respondent out of the norms as they leave out a stored assessment. No time per page
 * is known, so no respondent is flagged for speeding. Rows in another language than `language`
 * are counted and left out. Any bad row refuses the whole file, naming the rows (the header is row 1).
 */
export function csvSample(text: string, instrument: Instrument, model: CompetenceModel, language: Language): CsvSample {
  const rows = parseCsv(text.replace(/^\uFEFF/, ''));
  const [header, ...data] = rows;
  if (!header) throw new CsvError('the file is empty: it needs a header row of item ids');
  const names = header.fields.map((f) => f.trim());
  const problems: string[] = [];
  const items = new Set(instrument.items.map((i) => i.id));
  const optional = new Set<string>(OPTIONAL_COLUMNS);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) problems.push(`row 1: column "${name}" appears twice`);
    seen.add(name);
    if (!items.has(name) && !optional.has(name))
      problems.push(`row 1: column "${name}" is neither an item of ${instrument.code} nor one of ${OPTIONAL_COLUMNS.join(', ')}`);
  }
  const absent = [...items].filter((id) => !seen.has(id));
  if (absent.length)
    problems.push(`row 1: ${absent.length} items of ${instrument.code} have no column (${absent.slice(0, 5).join(', ')}${absent.length > 5 ? ', …' : ''})`);
  if (problems.length) throw new CsvError(listed(problems));

  const { min, max } = instrument.responseScale;
  const column = (name: string) => names.indexOf(name);
  const members: SampleMember[] = [];
  const about: CsvSample['about'] = [];
  let otherLanguage = 0;
  for (const { row, fields } of data) {
    if (fields.length !== names.length) {
      problems.push(`row ${row}: ${fields.length} fields, the header has ${names.length}`);
      continue;
    }
    const rowProblems: string[] = [];
    const answers = new Map<string, number>();
    names.forEach((name, i) => {
      if (!items.has(name)) return;
      const value = fields[i]!.trim();
      if (!/^\d{1,2}$/.test(value) || Number(value) < min || Number(value) > max) {
        rowProblems.push(`row ${row}: item ${name} is ${value === '' ? 'empty' : `"${value}"`}, not an answer from ${min} to ${max}`);
      } else answers.set(name, Number(value));
    });
    const gender = optionalField(fields, column('gender'));
    if (gender !== undefined && !/^[0-3]$/.test(gender)) rowProblems.push(`row ${row}: gender is "${gender}", not a Gender code 0 to 3 (or empty)`);
    const age = optionalField(fields, column('age'));
    if (age !== undefined && !(/^\d{1,3}$/.test(age) && Number(age) <= 130))
      rowProblems.push(`row ${row}: age is "${age}", not whole years from 0 to 130 (or empty)`);
    const lang = optionalField(fields, column('language'));
    if (lang !== undefined && lang !== 'nl' && lang !== 'en') rowProblems.push(`row ${row}: language is "${lang}", not nl or en (or empty)`);
    if (rowProblems.length) {
      problems.push(...rowProblems);
      continue;
    }
    // A respondent without a language is taken to have answered in the group's language.
    if (lang !== undefined && lang !== language) {
      otherLanguage++;
      continue;
    }
    const result = scoreCompletion(instrument, model, answers, new Map())!;
    members.push({
      scales: result.scales,
      competences: result.competences,
      flags: result.flags,
      answers,
      contentVersion: instrument.version,
      ...(column('gender') >= 0 ? { gender: gender === undefined ? 0 : Number(gender) } : {}),
      ...(age !== undefined ? { age: Number(age) } : {}),
    });
    about.push({ ...(gender !== undefined ? { gender: Number(gender) } : {}), ...(age !== undefined ? { age: Number(age) } : {}) });
  }
  if (problems.length) throw new CsvError(listed(problems));
  if (data.length === 0) throw new CsvError('the file has a header but no respondents');
  return { members, read: data.length, otherLanguage, about, hasGender: column('gender') >= 0, hasAge: column('age') >= 0 };
}

/** A field of an optional column: undefined when the file has no such column or the field is empty (or R's NA). */
function optionalField(fields: readonly string[], index: number): string | undefined {
  if (index < 0) return undefined;
  const value = fields[index]!.trim();
  return value === '' || value === 'NA' ? undefined : value;
}

function listed(problems: readonly string[]): string {
  const more = problems.length > MAX_PROBLEMS ? `\n  ... and ${problems.length - MAX_PROBLEMS} more` : '';
  return `not a valid file of item responses:\n${problems
    .slice(0, MAX_PROBLEMS)
    .map((p) => `  - ${p}`)
    .join('\n')}${more}`;
}

const GENDER_NAMES: Record<number, string> = { 0: 'unknown', 1: 'male', 2: 'female', 3: 'neutral' };

/**
 * The make-up of the members a norm group uses (those without integrity flags), in words for its
 * source: gender counts and the age range, where the file has those columns.
 */
export function composition(sample: CsvSample): string {
  const used = sample.about.filter((_, i) => sample.members[i]!.flags.length === 0);
  const parts: string[] = [];
  if (sample.hasGender) {
    const counts = new Map<number, number>();
    for (const { gender } of used) counts.set(gender ?? 0, (counts.get(gender ?? 0) ?? 0) + 1);
    parts.push(
      `gender ${[...counts]
        .sort(([a], [b]) => a - b)
        .map(([code, n]) => `${n.toLocaleString('en')} ${GENDER_NAMES[code]}`)
        .join(', ')}`,
    );
  }
  const ages = used.flatMap(({ age }) => (age === undefined ? [] : [age])).sort((a, b) => a - b);
  if (sample.hasAge && ages.length > 0) {
    const mid = ages.length >> 1;
    const median = ages.length % 2 ? ages[mid]! : (ages[mid - 1]! + ages[mid]!) / 2;
    const unknown = used.length - ages.length;
    parts.push(`age ${ages[0]} to ${ages[ages.length - 1]}, median ${median}${unknown ? `, ${unknown.toLocaleString('en')} unknown` : ''}`);
  }
  return parts.join('; ');
}
