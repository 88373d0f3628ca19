/**
 * Runs on a thread of its own, as a PDF thread does, so that no font is parsed before: renders one
 * report for the candidate named in `workerData` and sends back the fonts it parsed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parsedFontNames } from '../../src/reports/fonts.js';
import { reportPdf } from '../../src/reports/pdf.js';
import { reportModel } from './report-model.js';

const pdf = await reportPdf(reportModel(String(workerData)), '1 March 2026 10:00 UTC');
parentPort!.postMessage({ bytes: pdf.length, fonts: parsedFontNames() });
