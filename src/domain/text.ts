/**
 * Characters refused in names and other text people read. Bidirectional controls reorder how the
 * text around them displays (a name reads differently in the report and the PDF); C0/C1 controls
 * drive terminals (`norms list`) and are never part of a name. As regex class contents.
 */
export const BIDI_CONTROLS = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
export const CONTROLS = '\\u0000-\\u001F\\u007F-\\u009F';

// With the u flag a lone surrogate matches; a paired one (an emoji, rare CJK) does not.
const REFUSED = new RegExp(`[${CONTROLS}${BIDI_CONTROLS}\\uD800-\\uDFFF]`, 'u');

/** The first refused character in `s` as "U+001B", or undefined when there is none. */
export function refusedCharacter(s: string): string | undefined {
  const found = REFUSED.exec(s);
  return found ? `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}

/** A message naming `field` and the refused character, or undefined when `s` is fine. */
export function textProblem(field: string, s: string): string | undefined {
  const c = refusedCharacter(s);
  return c ? `${field} contains a character that is not allowed (${c}: a control or bidirectional control character)` : undefined;
}

/**
 * `textProblem` for every string in `value` (parsed JSON) and every key of its objects, each named
 * by its path from `at`. A refused key is named by where it is, never quoted (the message goes to a
 * terminal too), and nothing under it is searched.
 */
export function textProblemsWithin(value: unknown, at: string): string[] {
  if (typeof value === 'string') return [textProblem(at, value) ?? []].flat();
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => textProblemsWithin(v, `${at}[${i}]`));
  return Object.entries(value).flatMap(([key, v]) => {
    const refused = textProblem(`a key of ${at}`, key);
    return refused ? [refused] : textProblemsWithin(v, `${at}.${key}`);
  });
}
