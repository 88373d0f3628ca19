/** Colours as #rrggbb, and the WCAG 2 contrast between two. */
export const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The WCAG 2 contrast ratio, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG AA asks 4.5:1 for normal text; the portal puts white text on the primary colour. */
export const AA_CONTRAST = 4.5;

/** The same colour a fifth darker, for hover states and the header. */
export function darken(hex: string, by = 0.2): string {
  const part = (i: number) =>
    Math.round(parseInt(hex.slice(i, i + 2), 16) * (1 - by))
      .toString(16)
      .padStart(2, '0');
  return `#${part(1)}${part(3)}${part(5)}`;
}
