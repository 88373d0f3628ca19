import { inflateSync } from 'node:zlib';
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
    pages.push(
      content.items.map((item) =>
        'str' in item ? { str: item.str, transform: item.transform as number[], width: item.width } : { str: '', transform: [], width: 0 },
      ),
    );
  }
  await doc.destroy();
  return pages;
}

/** Parses a PDF with Mozilla's pdf.js: its page count and the text of each page. */
export async function readPdf(bytes: Uint8Array): Promise<{ pages: number; text: string[] }> {
  const pages = await readPdfPlaced(bytes);
  return { pages: pages.length, text: pages.map((items) => items.map((item) => item.str).join(' ')) };
}

/**
 * The PDF's compressed streams (page contents, embedded fonts, their maps), inflated, in file
 * order. Two PDFs drawn alike have equal streams; only the metadata, which holds the time, is
 * stored uncompressed and left out.
 */
export function inflatedStreams(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('latin1');
  const streams: string[] = [];
  for (let at = text.indexOf('/FlateDecode'); at >= 0; at = text.indexOf('/FlateDecode', at + 1)) {
    const start = text.indexOf('stream\n', at) + 'stream\n'.length;
    const end = text.indexOf('\nendstream', start);
    streams.push(inflateSync(buffer.subarray(start, end)).toString('latin1'));
  }
  return streams;
}

/**
 * A PDF's XMP packet as stored (pdfkit keeps it uncompressed), and what pdf.js's XML parser reads
 * from it: element name (lower case, e.g. "dc:title") to text. Throws when there is no packet.
 */
export async function readXmp(bytes: Uint8Array): Promise<{ packet: string; fields: Record<string, unknown> }> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  const start = text.indexOf('<x:xmpmeta');
  const end = text.indexOf('</x:xmpmeta>', start);
  if (start < 0 || end < 0) throw new Error('the PDF has no XMP packet');
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, verbosity: 0 }).promise;
  try {
    const { metadata } = await doc.getMetadata();
    return { packet: text.slice(start, end + '</x:xmpmeta>'.length), fields: { ...(metadata?.getAll() ?? {}) } };
  } finally {
    await doc.destroy();
  }
}
