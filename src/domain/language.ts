export type Language = 'nl' | 'en';
export const LANGUAGES: readonly Language[] = ['nl', 'en'];

/** Picks nl or en from an Accept-Language header by q-value; English when neither is asked for. */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: (tag ?? '').split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((x) => (x.lang === 'nl' || x.lang === 'en') && x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.lang as Language | undefined) ?? 'en';
}
