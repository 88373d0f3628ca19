/**
 * A candidate's name as written in running text: first name, preposition, last name, with the
 * preposition in lower case as the candidate gave it ("Anna van der Berg"). Empty parts drop out.
 */
export function fullName(p: { first_name: string; preposition: string; last_name: string }): string {
  return [p.first_name, p.preposition, p.last_name]
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
}
