/**
 * The PDF's text in any script: fonts registered with a document on first use, word layouts
 * shared across PDFs (but not the candidate's particulars), and one-line labels that fit their box.
 */

import { drawnLines, parsedFont, wordLayouts, type FontName, type Run, type WordLayout } from './fonts.js';

type Doc = PDFKit.PDFDocument;

/** The methods of pdfkit's per-document font (EmbeddedFont, pdfkit 0.20) that lay out a word, and a text of words. */
interface EmbeddedFont {
  layoutRun(text: string): WordLayout;
  layoutCached(text: string): WordLayout;
  layout(text: string, features?: unknown, onlyWidth?: boolean): WordLayout;
}

const registered = new WeakMap<Doc, Set<FontName>>();

/**
 * Registers a font with the document on first use. The fallback fonts (fonts.ts) are parsed only
 * when a candidate's particulars need one: Han and Hangul alone are 17 MB of files, held for as
 * long as the PDF thread lives.
 */
export function useFont(doc: Doc, name: FontName): void {
  let names = registered.get(doc);
  if (!names) registered.set(doc, (names = new Set()));
  if (names.has(name)) return;
  // pdfkit accepts a fontkit font object; its types know only paths and buffers.
  doc.registerFont(name, parsedFont(name) as unknown as Buffer);
  shareWordLayouts(doc, name);
  names.add(name);
}

/** Documents drawing the candidate's particulars right now (see `personal`). */
const drawingPersonal = new WeakSet<Doc>();

/**
 * Makes the document's `name` font look words and drawn lines up in the layouts every PDF shares
 * (fonts.ts) instead of laying them out again, except while it draws personal text. Selecting a
 * font embeds nothing: pdfkit embeds only the fonts a page draws with.
 */
function shareWordLayouts(doc: Doc, name: FontName): void {
  doc.font(name);
  const font = (doc as unknown as { _font: Partial<EmbeddedFont> })._font;
  if (typeof font.layoutRun !== 'function' || typeof font.layoutCached !== 'function' || typeof font.layout !== 'function') {
    throw new Error('pdfkit no longer lays out words through EmbeddedFont.layoutRun, layoutCached and layout; see reports/pdf-text.ts');
  }
  const layoutRun = font.layoutRun.bind(font);
  const shared = wordLayouts(name);
  const own = new Map<string, WordLayout>();
  font.layoutCached = (text) => keptOr(drawingPersonal.has(doc) ? own : shared, text, layoutRun);
  // A line to draw: measuring (onlyWidth) makes no arrays, and features are never asked for.
  const layout = font.layout.bind(font);
  const lines = drawnLines(name);
  font.layout = (text, features, onlyWidth) =>
    onlyWidth || features || drawingPersonal.has(doc) ? layout(text, features, onlyWidth) : keptOr(lines, text, layout);
}

/** The layout `cache` holds for `text`, or a new one from `make`, kept there. */
function keptOr(
  cache: { get(text: string): WordLayout | undefined; set(text: string, layout: WordLayout): unknown },
  text: string,
  make: (text: string) => WordLayout,
): WordLayout {
  let layout = cache.get(text);
  if (!layout) cache.set(text, (layout = make(text)));
  return layout;
}

/**
 * Draws the candidate's particulars with layouts kept by this document only: the shared layouts
 * outlive any one report, and a name kept there would outlive the candidate's erasure.
 */
export function personal(doc: Doc, draw: () => void): void {
  drawingPersonal.add(doc);
  try {
    draw();
  } finally {
    drawingPersonal.delete(doc);
  }
}

/** Smallest size a label shrinks to. */
const MIN_LABEL_SIZE = 5;

export interface Box {
  x: number;
  y: number;
  width: number;
  align: 'left' | 'right' | 'center';
  /** The size asked for; a label too wide for its box is drawn smaller, and narrowed below MIN_LABEL_SIZE. */
  size: number;
  /** For text given as a string. */
  font?: FontName;
}

/**
 * One line at (x, y), aligned within `width` and shrunk to fit it (narrowed past the smallest size),
 * never wrapped: a string in one font, or runs of text each in the font its script needs. Given a width, pdfkit sends text through
 * a line wrapper of its own: for a label or a table cell that cost more than drawing it, and a long
 * one went on over the next row.
 */
export function label(doc: Doc, text: string | Run[], at: Box): void {
  const base = at.font ?? 'regular';
  const parts = typeof text === 'string' ? [{ font: base, text }] : text;
  let natural = 0;
  for (const r of parts) {
    // The base fonts are the document's from its start; a run may need another.
    if (r.font !== base) useFont(doc, r.font);
    natural += doc.font(r.font).fontSize(at.size).widthOfString(r.text);
  }
  // A text's width grows in proportion to its size.
  const size = natural > at.width ? Math.max(MIN_LABEL_SIZE, (at.size * at.width) / natural) : at.size;
  const fitted = (natural * size) / at.size;
  // Too long even at the smallest size: narrowed to its box, every character kept.
  const options = fitted > at.width ? { lineBreak: false, horizontalScaling: (100 * at.width) / fitted } : { lineBreak: false };
  const room = Math.max(0, at.width - fitted);
  let x = at.align === 'left' ? at.x : at.align === 'right' ? at.x + room : at.x + room / 2;
  // Every run on the base font's baseline (fonts of other scripts have other ascents), and a
  // shrunk line about the middle of the line asked for, so that it stays on its row.
  const { ascent, height } = metrics(base);
  const baseline = at.y + (height * (at.size - size)) / 2 + ascent * size;
  for (const r of parts) {
    if (parts.length > 1) doc.font(r.font);
    // pdfkit places a text's top at y, its baseline the font's ascent below, and moves x past it.
    doc.fontSize(size).text(r.text, x, baseline - metrics(r.font).ascent * size, options);
    x = doc.x;
  }
  // Back to the size asked for: what follows (a line's height, moveDown) does not see the shrinking.
  doc.fontSize(at.size);
}

const fontMetrics = new Map<FontName, { ascent: number; height: number }>();

/** A font's ascent, and its height from descent to ascent, per point of size. */
function metrics(name: FontName): { ascent: number; height: number } {
  let m = fontMetrics.get(name);
  if (!m) {
    const font = parsedFont(name);
    fontMetrics.set(name, (m = { ascent: font.ascent / font.unitsPerEm, height: (font.ascent - font.descent) / font.unitsPerEm }));
  }
  return m;
}
