import { LRUCache } from 'lru-cache';

type Doc = PDFKit.PDFDocument;

/** A line as pdfkit's line wrapper hands it to the document to draw. */
interface Line {
  text: string;
  textWidth: number;
  wordCount: number;
}

interface LineOptions {
  width: number;
  lineWidth: number;
  textWidth: number;
  wordCount: number;
}

/**
 * The document methods of pdfkit 0.20 that `text` uses: `_text` runs the line wrapper and hands
 * each line to a callback, `_line` draws one line and moves down a line's height.
 */
interface Internals {
  _text(text: string, x: number, y: number, options: { width: number }, onLine: (line: string, options: LineOptions, wrapper: unknown) => void): Doc;
  _line(text: string, options: LineOptions, wrapper?: unknown): void;
  _font: { name: string };
  _fontSize: number;
  _lineGap: number;
}

function internals(doc: Doc): Internals {
  const d = doc as unknown as Partial<Internals>;
  if (typeof d._text !== 'function' || typeof d._line !== 'function' || typeof d._font?.name !== 'string' || typeof d._fontSize !== 'number') {
    throw new Error('pdfkit no longer wraps text through _text and _line; see reports/pdf-lines.ts');
  }
  return d as Internals;
}

/** Paragraphs kept as lines, per font, size and width; the report texts have a few hundred per language. */
export const KEPT_PARAGRAPHS = 4_000;
const kept = new LRUCache<string, Line[]>({ max: KEPT_PARAGRAPHS });

/** A paragraph this close to the page's foot is wrapped afresh, so that pdfkit decides the page break. */
const FOOT_SLACK = 1;

/**
 * Draws `text` as `doc.text(text, x, y, { width })` does, from the lines the same paragraph was
 * broken into before when there are any. pdfkit breaks every paragraph of every PDF into lines
 * again, measuring each word, although the report's texts are the same in every report. A
 * paragraph that would run past the page's foot goes through pdfkit's wrapper, which starts the
 * next page where it must. Never for a candidate's particulars: the kept lines outlive any one
 * report (as in fonts.ts `wordLayouts`).
 */
export function flow(doc: Doc, text: string, at: { x?: number; y?: number; width?: number } = {}): Doc {
  const d = internals(doc);
  const x = at.x ?? doc.x;
  const y = at.y ?? doc.y;
  const width = at.width ?? doc.page.width - x - doc.page.margins.right;
  const key = `${d._font.name}\u0000${d._fontSize}\u0000${width}\u0000${text}`;
  const lines = kept.get(key);
  if (lines && fitsOnPage(doc, y, lines.length, d._lineGap)) {
    doc.x = x;
    doc.y = y;
    for (const line of lines) d._line(line.text, { width, lineWidth: width, textWidth: line.textWidth, wordCount: line.wordCount }, true);
    return doc;
  }
  const seen: Line[] = [];
  d._text(text, x, y, { width }, (line, options, wrapper) => {
    seen.push({ text: line, textWidth: options.textWidth, wordCount: options.wordCount });
    d._line(line, options, wrapper);
  });
  kept.set(key, seen);
  return doc;
}

/** Whether `count` lines from `y` end clear of the page's foot, by more than rounding could move them. */
function fitsOnPage(doc: Doc, y: number, count: number, lineGap: number): boolean {
  const last = y + (count - 1) * (doc.currentLineHeight(true) + lineGap);
  return last + doc.currentLineHeight(true) <= doc.page.maxY() - FOOT_SLACK;
}

/** The paragraphs kept now, as `font size width text` keys; for tests. */
export function keptParagraphs(): string[] {
  return [...kept.keys()];
}

export function forgetParagraphs(): void {
  kept.clear();
}
