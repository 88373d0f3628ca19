/** A PDF thread of `pdf-threads.ts`: one report per task. */
import { reportPdf } from './pdf.js';
import type { PdfTask } from './pdf-threads.js';
import { reportTexts } from './texts.js';

export default async function render(task: PdfTask): Promise<Uint8Array> {
  // The texts hold functions, which cannot cross to a thread: each thread has its own copy.
  const bytes = await reportPdf({ ...task.model, t: reportTexts(task.model.lang, task.model.kind) }, task.generatedAt);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
