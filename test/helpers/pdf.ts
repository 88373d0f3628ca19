import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** One piece of a page's text with where pdf.js places it (its transform matrix) and its width, in points. */
export interface PlacedText {
  str: string;
  transform: number[];
  width: number;
}

/** Parses a PDF with Mozilla's pdf.js: each page's pieces of text, in content order. */
export async function readPdfPlaced(bytes: Uint8Array): Promise<PlacedText[][]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  const pages: PlacedText[][] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    // Marked-content items carry no text; they stay as empty pieces, as pdf.js lists them.
    pages.push(content.items.map((item) => ('str' in item ? { str: item.str, transform: item.transform as number[], width: item.width } : { str: '', transform: [], width: 0 })));
  }
  await doc.destroy();
  return pages;
}

/** Parses a PDF with Mozilla's pdf.js: its page count and the text of each page. */
export async function readPdf(bytes: Uint8Array): Promise<{ pages: number; text: string[] }> {
  const pages = await readPdfPlaced(bytes);
  return { pages: pages.length, text: pages.map((items) => items.map((item) => item.str).join(' ')) };
}
