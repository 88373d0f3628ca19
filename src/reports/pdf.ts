import zlib, { type InputType, type ZlibOptions } from 'node:zlib';
import PDFDocument from 'pdfkit';
import { chartScale, domainBreaks } from './chart.js';
import { runs, type FontName } from './fonts.js';
import { ADVERSE_MARK, bandText, bandWords, domainGroups, fairnessCells, hasBands, howToRead, markedName, rawRange, type ReportModel } from './model.js';
import { flow } from './pdf-lines.js';
import { label, personal, useFont } from './pdf-text.js';

const MARGIN = 50;
const INK = '#111827';
const MUTED = '#374151';
const BRAND = '#1d4ed8';
const BAND = '#e8edf3';
const BASE_FONTS: FontName[] = ['regular', 'bold'];

type Doc = PDFKit.PDFDocument;

/** The report as a PDF (A4), from the same model as the HTML page. Fonts are embedded as subsets. */
export function reportPdf(m: ReportModel, generatedAt: string): Promise<Buffer> {
  const { t } = m;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    lang: m.lang,
    // No candidate's name in the metadata: pdfkit writes Title into the XMP packet unescaped, and
    // file metadata travels further than the page.
    info: { Title: `${t.title}: ${m.instrumentName}`, Author: 'Assay', Subject: m.instrumentName },
    pdfVersion: '1.7',
    displayTitle: true,
    // No standard font to start with: pdfkit would read Helvetica's metrics for every PDF, and a
    // report draws only in the fonts it embeds.
    font: '',
  });
  for (const name of BASE_FONTS) useFont(doc, name);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  flow(doc.font('bold').fontSize(20).fillColor(INK), t.title);
  flow(doc.font('regular').fontSize(9.5).fillColor(MUTED), t.confidential).moveDown(0.8);
  facts(doc, [
    [t.candidate, m.candidateName, 'personal'],
    [t.instrument, m.instrumentName],
    [t.completed, m.completedOn],
  ]);
  const y = doc.y;
  doc.font('bold').fontSize(10).fillColor(INK).text(t.normGroup, MARGIN, y, { lineBreak: false });
  flow(doc.font('regular'), m.norm.line, { x: MARGIN + 110, y, width: width - 110 });
  if (m.norm.about) flow(doc.font('regular').fontSize(8.5).fillColor(MUTED), m.norm.about, { x: MARGIN + 110, width: width - 110 }).fillColor(INK);
  if (m.norm.illustrative) notice(doc, t.illustrative, width);
  if (m.translationNote) notice(doc, m.translationNote, width);
  if (m.formNote) notice(doc, m.formNote, width);

  heading(doc, t.profile);
  flow(doc.font('regular').fontSize(9.5).fillColor(MUTED), m.norm.normed ? t.profileIntro : t.profileRaw(rawRange(m)), { width });
  chart(doc, m, width);

  heading(doc, t.tableCaption);
  const bands = hasBands(m);
  if (bands) flow(doc.font('regular').fontSize(9.5).fillColor(MUTED), t.stenBandExplained, { width }).moveDown(0.3);
  // With narrow scales, each domain heads its group in bold, its narrow scales indented beneath.
  const grouped = domainGroups(m) !== null;
  table(
    doc,
    width,
    [t.scale, t.sten, t.percentile, t.raw(rawRange(m)), ...(bands ? [t.stenBand] : []), t.band],
    m.scales.map((s) => [markedName(s), num(s.sten), num(s.percentile), s.raw.toFixed(2), ...(bands ? [bandText(s)] : []), bandWords(s, t)]),
    grouped ? m.scales.map((s) => (s.narrow ? { indent: 12 } : { bold: true, rule: true })) : undefined,
  );
  if (m.scales.some((s) => s.adverse)) paragraph(doc, `${ADVERSE_MARK} ${t.fairness.adverse}`, width);

  if (m.fairness?.length) {
    heading(doc, t.fairness.title);
    for (const text of [t.fairness.intro, t.fairness.advice]) paragraph(doc, text, width);
    const f = t.fairness;
    const rows = m.fairness.map((r) => [markedName({ name: r.name, ...(r.adverse ? { adverse: true as const } : {}) }), ...fairnessCells(r)]);
    table(
      doc,
      width,
      [t.scale, 'd', f.interval, f.ratioHigh, f.ratioLow],
      rows,
      grouped ? m.fairness.map((r) => (r.narrow ? { indent: 12 } : { bold: true, rule: true })) : undefined,
    );
    if (m.fairness.some((r) => r.adverse)) paragraph(doc, `${ADVERSE_MARK} ${f.adverse}`, width);
  }

  heading(doc, m.norm.normed ? t.interpretation : t.scalesMeaning);
  for (const s of m.scales) {
    ensure(doc, 40);
    flow(doc.font('bold').fontSize(10).fillColor(INK), s.band ? `${s.name} (${bandWords(s, t)})` : s.name, { x: MARGIN, width });
    flow(doc.font('regular').fontSize(9.5), s.interpretation, { width }).moveDown(0.4);
  }

  // An instrument outside the competence model (the SPI) has none: no section to explain an empty table.
  if (m.competences.length) {
    heading(doc, t.competences);
    flow(doc.font('regular').fontSize(9.5).fillColor(MUTED), t.competencesIntro, { width }).moveDown(0.3);
    const reliable = m.competences.some((c) => c.reliability !== undefined);
    const row = (c: ReportModel['competences'][number]) => [
      c.name,
      num(c.sten),
      num(c.percentile),
      c.raw.toFixed(2),
      ...(reliable ? [c.reliability === undefined ? '–' : c.reliability.toFixed(2)] : []),
    ];
    table(doc, width, [t.competence, t.sten, t.percentile, t.raw(rawRange(m)), ...(reliable ? [t.compositeReliability] : [])], m.competences.map(row));
  }

  heading(doc, t.quality);
  paragraph(doc, `${m.consistency} ${t.consistencyHelp}`, width);
  if (m.flags.length) {
    for (const f of m.flags) paragraph(doc, `• ${f.text}`, width);
    paragraph(doc, t.flagAdvice, width);
  } else paragraph(doc, t.noFlags, width);

  heading(doc, t.howToRead);
  for (const item of howToRead(m)) paragraph(doc, `• ${item}`, width);
  heading(doc, t.limits);
  for (const item of t.limitsItems) paragraph(doc, `• ${item}`, width);
  paragraph(doc, t.generated(generatedAt), width);

  // Page numbers last, when the page count is known.
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    // In the bottom margin: a label never starts a new page, as text pdfkit wraps would.
    label(doc.fillColor(MUTED), t.page(i + 1, range.count), { x: MARGIN, y: doc.page.height - MARGIN + 15, width, align: 'right', size: 8 });
  }
  endQuickly(doc);
  return done;
}

/**
 * Ends the document with its streams compressed at zlib's level 1 instead of its default 6:
 * pdfkit's deflate, which takes no level, is a large share of a PDF's CPU, and level 1 costs a
 * few more bytes. pdfkit compresses every stream inside `end`, synchronously, so no other code on
 * this thread sees the swap.
 */
function endQuickly(doc: Doc): void {
  const deflate = zlib.deflateSync;
  zlib.deflateSync = (buffer: InputType, options?: ZlibOptions) => deflate(buffer, { ...options, level: zlib.constants.Z_BEST_SPEED });
  try {
    doc.end();
  } finally {
    zlib.deflateSync = deflate;
  }
}

const num = (v: number | undefined) => (v === undefined ? '–' : String(v));

function ensure(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
}

function heading(doc: Doc, text: string): void {
  ensure(doc, 60);
  flow(doc.moveDown(0.8).font('bold').fontSize(13).fillColor(BRAND), text, { x: MARGIN }).fillColor(INK).moveDown(0.2);
}

function paragraph(doc: Doc, text: string, width: number): void {
  ensure(doc, 30);
  flow(doc.font('regular').fontSize(9.5).fillColor(INK), text, { x: MARGIN, width }).moveDown(0.3);
}

function notice(doc: Doc, text: string, width: number): void {
  doc.moveDown(0.5);
  const y = doc.y;
  doc.font('regular').fontSize(9.5);
  const h = doc.heightOfString(text, { width: width - 16 }) + 10;
  doc.rect(MARGIN, y, width, h).fill('#fef3c7');
  doc.rect(MARGIN, y, 3, h).fill('#92400e');
  flow(doc.fillColor('#451a03'), text, { x: MARGIN + 10, y: y + 5, width: width - 16 });
  doc.y = y + h;
  doc.fillColor(INK);
}

/**
 * Label and value lines, the values in any script (a name), drawn run by run. The candidate's name
 * is laid out for this document only; the instrument's name and a date are words any report has.
 */
function facts(doc: Doc, rows: Array<[string, string, 'personal'?]>): void {
  for (const [name, value, kind] of rows) {
    const y = doc.y;
    doc.font('bold').fontSize(10).fillColor(INK).text(name, MARGIN, y, { lineBreak: false });
    const draw = () => label(doc, runs(value), { x: MARGIN + 110, y, width: doc.page.width - 2 * MARGIN - 110, align: 'left', size: 10 });
    if (kind === 'personal') personal(doc, draw);
    else draw();
    doc.y = y + 16;
  }
}

function chart(doc: Doc, m: ReportModel, width: number): void {
  const { min, max, value } = chartScale(m);
  const labels = 160;
  const row = 15;
  const plot = width - labels - 30;
  const breaks = domainBreaks(m);
  const gap = 6;
  const rows = m.scales.length * row + (breaks.at(-1) ?? 0) * gap;
  const height = 18 + rows;
  const grouped = domainGroups(m) !== null;
  ensure(doc, height + 10);
  const top = doc.y + 16;
  const x = (v: number) => MARGIN + labels + ((v - min) / (max - min)) * plot;
  if (m.norm.normed) {
    doc.rect(x(3.5), top - 4, x(7.5) - x(3.5), rows + 4).fill(BAND);
    label(doc.fillColor(MUTED), m.t.averageBand, { x: x(3.5), y: top - 15, width: x(7.5) - x(3.5), align: 'center', size: 7.5 });
  }
  for (let v = min + 1; v <= max; v++) {
    doc
      .moveTo(x(v), top - 4)
      .lineTo(x(v), top + rows)
      .lineWidth(0.4)
      .strokeColor('#d1d5db')
      .stroke();
    if (!m.norm.normed || v % 1 === 0) label(doc.fillColor(MUTED), String(v), { x: x(v) - 10, y: top + rows + 2, width: 20, align: 'center', size: 7 });
  }
  m.scales.forEach((s, i) => {
    const y = top + i * row + breaks[i]! * gap;
    const v = value(s);
    // A domain's name heads its narrow scales: bold, from the left margin.
    const heading = grouped && !s.narrow;
    label(doc.fillColor(INK), markedName(s), {
      x: MARGIN,
      y: y + 2,
      width: labels - 8,
      align: heading ? 'left' : 'right',
      size: 8.5,
      ...(heading ? { font: 'bold' as const } : {}),
    });
    doc.rect(x(min), y + 2, Math.max(1.5, x(v) - x(min)), row - 5).fill(BRAND);
    if (m.norm.normed && s.stenBand) {
      const mid = y + 2 + (row - 5) / 2;
      doc.moveTo(x(s.stenBand.low), mid).lineTo(x(s.stenBand.high), mid).lineWidth(1.2).strokeColor(INK).stroke();
    }
    doc
      .font('regular')
      .fontSize(8)
      .fillColor(INK)
      .text(m.norm.normed ? String(v) : v.toFixed(2), x(v) + 4, y + 2, { lineBreak: false });
  });
  doc.y = top + height;
  doc.x = MARGIN;
}

/** How a table row is drawn: bold, its first cell indented, a rule above it. */
interface RowStyle {
  bold?: boolean;
  indent?: number;
  rule?: boolean;
}

function table(doc: Doc, width: number, head: string[], rows: string[][], styles?: RowStyle[]): void {
  const first = width - (head.length - 1) * 70;
  const cols = [first, ...head.slice(1).map(() => 70)];
  const draw = (cells: string[], style: RowStyle) => {
    ensure(doc, 16);
    const y = doc.y;
    if (style.rule)
      doc
        .moveTo(MARGIN, y)
        .lineTo(MARGIN + width, y)
        .lineWidth(1)
        .strokeColor(INK)
        .stroke();
    let x = MARGIN;
    cells.forEach((cell, i) => {
      const indent = i === 0 ? (style.indent ?? 0) : 0;
      const font = style.bold ? 'bold' : 'regular';
      label(doc.fillColor(INK), cell, { x: x + 2 + indent, y: y + 3, width: cols[i]! - 6 - indent, align: i === 0 ? 'left' : 'right', size: 9, font });
      x += cols[i]!;
    });
    doc
      .moveTo(MARGIN, y + 15)
      .lineTo(MARGIN + width, y + 15)
      .lineWidth(0.4)
      .strokeColor('#9ca3af')
      .stroke();
    doc.y = y + 16;
  };
  draw(head, { bold: true });
  rows.forEach((r, i) => draw(r, styles?.[i] ?? {}));
  doc.x = MARGIN;
  doc.moveDown(0.3);
}
