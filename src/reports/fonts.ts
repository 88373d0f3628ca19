import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';
import { LRUCache } from 'lru-cache';

const require = createRequire(import.meta.url);

/** A font file from an npm package of Google's Noto fonts (SIL Open Font License). */
function noto(pkg: string, file: string): string {
  return join(dirname(require.resolve(`@expo-google-fonts/${pkg}/package.json`)), file);
}

/**
 * The PDF's fonts, in the order a character looks for one that has it. Noto Sans covers Latin,
 * Greek, Cyrillic and Devanagari; the others cover Han and kana, Hangul, Arabic, Hebrew and Thai.
 * A PDF embeds only the glyphs it uses.
 */
const FILES = {
  regular: noto('noto-sans', '400Regular/NotoSans_400Regular.ttf'),
  bold: noto('noto-sans', '700Bold/NotoSans_700Bold.ttf'),
  han: noto('noto-sans-sc', '400Regular/NotoSansSC_400Regular.ttf'),
  hangul: noto('noto-sans-kr', '400Regular/NotoSansKR_400Regular.ttf'),
  arabic: noto('noto-sans-arabic', '400Regular/NotoSansArabic_400Regular.ttf'),
  hebrew: noto('noto-sans-hebrew', '400Regular/NotoSansHebrew_400Regular.ttf'),
  thai: noto('noto-sans-thai', '400Regular/NotoSansThai_400Regular.ttf'),
} as const;

export type FontName = keyof typeof FILES;
const FALLBACKS: readonly FontName[] = ['han', 'hangul', 'arabic', 'hebrew', 'thai'];

// Read and parsed once per process, on first use: the CJK files are several MB each.
const loaded = new Map<FontName, fontkit.Font>();

/**
 * The parsed font, shared by every PDF: pdfkit takes a fontkit font as it is and makes each
 * document its own subset. Parsing the file again per document cost most of a PDF's time.
 */
export function parsedFont(name: FontName): fontkit.Font {
  let font = loaded.get(name);
  if (!font) {
    font = fontkit.create(readFileSync(FILES[name])) as fontkit.Font;
    loaded.set(name, font);
  }
  return font;
}

/** The fonts this thread has parsed so far. */
export function parsedFontNames(): FontName[] {
  return [...loaded.keys()];
}

/** A word as pdfkit lays it out: fontkit's glyphs, with positions in thousandths of the font size. */
export interface WordLayout {
  glyphs: fontkit.Glyph[];
  positions: Array<Record<string, number>>;
  advanceWidth: number;
}

/** Distinct words kept per font; the report texts have a few thousand. */
export const WORD_LAYOUTS_PER_FONT = 20_000;
/** Distinct drawn lines kept per font: the report texts' lines, labels and cells, a few hundred a language. */
export const LINE_LAYOUTS_PER_FONT = 5_000;
const layouts = new Map<FontName, LRUCache<string, WordLayout>>();
const lineLayouts = new Map<FontName, LRUCache<string, WordLayout>>();

/**
 * Word layouts of a parsed font, shared by every PDF. Shaping a word (fontkit's GSUB and GPOS
 * lookups) is most of a PDF's CPU, and pdfkit keeps its own word cache per document only, so
 * every report shaped the same interpretation texts again. The glyphs belong to the shared parsed
 * font, and pdfkit copies a position before it changes one, so a layout can serve any document.
 * A candidate's particulars are never laid out here (reports/pdf.ts `personal`).
 */
export function wordLayouts(name: FontName): LRUCache<string, WordLayout> {
  return keptIn(layouts, name, WORD_LAYOUTS_PER_FONT);
}

/**
 * Layouts of whole lines as drawn, shared by every PDF like the words: pdfkit joins a line's
 * words into new arrays of glyphs and positions each time it draws the line, and reads them only.
 */
export function drawnLines(name: FontName): LRUCache<string, WordLayout> {
  return keptIn(lineLayouts, name, LINE_LAYOUTS_PER_FONT);
}

function keptIn(caches: Map<FontName, LRUCache<string, WordLayout>>, name: FontName, max: number): LRUCache<string, WordLayout> {
  let cache = caches.get(name);
  if (!cache) caches.set(name, (cache = new LRUCache<string, WordLayout>({ max })));
  return cache;
}

const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;

/** A piece of text in one font, in the order it is drawn left to right. */
export interface Run {
  font: FontName;
  text: string;
}

/**
 * Splits a line into runs of one font each, in visual order. Each character takes the first font
 * that has it (the bold or regular base first). A line whose first letter is right-to-left
 * (Arabic, Hebrew) has its words laid out right to left; each word's own shaping and order are
 * fontkit's.
 */
export function runs(text: string, base: 'regular' | 'bold' = 'regular'): Run[] {
  const firstLetter = [...text].find((c) => /\p{L}/u.test(c));
  let words = text.split(/(\s+)/u).filter((w) => w !== '');
  if (firstLetter !== undefined && RTL.test(firstLetter)) words = words.reverse();
  const out: Run[] = [];
  for (const word of words) {
    for (const ch of word) {
      const font = fontFor(ch.codePointAt(0)!, base);
      const last = out.at(-1);
      if (last && last.font === font) last.text += ch;
      else out.push({ font, text: ch });
    }
  }
  return out;
}

function fontFor(codePoint: number, base: 'regular' | 'bold'): FontName {
  if (codePoint <= 0x7f || parsedFont(base).hasGlyphForCodePoint(codePoint)) return base;
  return FALLBACKS.find((name) => parsedFont(name).hasGlyphForCodePoint(codePoint)) ?? base;
}
