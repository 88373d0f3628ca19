import type { Language } from './instruments/types.js';

/** The cultures the results endpoint takes (matched case-insensitively) and the language each picks. */
export const CULTURES: Readonly<Record<string, Language>> = { 'nl-NL': 'nl', 'en-GB': 'en', 'en-US': 'en' };

export function cultureLanguage(culture: string): Language | undefined {
  const key = Object.keys(CULTURES).find((c) => c.toLowerCase() === culture.toLowerCase());
  return key === undefined ? undefined : CULTURES[key];
}
