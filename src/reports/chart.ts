import { html, type Html } from '../platform/html.js';
import { ADVERSE_MARK, domainGroups, rawRange, type ReportModel } from './model.js';

const WIDTH = 720;
const LABEL = 220;
const ROW = 22;
const TOP = 34;
const RIGHT = 40;

/** Where the bars' scale runs: stens 1–10 when normed, else the instrument's response scale, from one below its lowest point. */
export function chartScale(model: ReportModel): { min: number; max: number; value: (s: ReportModel['scales'][number]) => number } {
  const { min, max } = rawRange(model);
  return model.norm.normed ? { min: 0, max: 10, value: (s) => s.sten! } : { min: min - 1, max, value: (s) => s.raw };
}

/**
 * Per scale, how many domains have begun after the first by its row, for a gap before each domain
 * after the first; all 0 when the instrument has no narrow scales.
 */
export function domainBreaks(model: Pick<ReportModel, 'scales'>): number[] {
  if (!domainGroups(model)) return model.scales.map(() => 0);
  let breaks = -1;
  return model.scales.map((s) => (s.narrow ? breaks : ++breaks));
}

const GAP = 10;

/**
 * The profile chart as inline SVG: one bar per scale, the average band (sten 4–7) shaded. Colours
 * are presentation attributes, not style attributes, so the strict CSP allows them. It is an image
 * with a title and description for screen readers; the same numbers follow in a table.
 */
export function profileChart(model: ReportModel): Html {
  const { t } = model;
  const { min, max, value } = chartScale(model);
  const plot = WIDTH - LABEL - RIGHT;
  const x = (v: number) => LABEL + ((v - min) / (max - min)) * plot;
  const breaks = domainBreaks(model);
  const rows = model.scales.length * ROW + (breaks.at(-1) ?? 0) * GAP;
  const height = TOP + rows + 10;
  const grouped = domainGroups(model) !== null;
  const ticks = Array.from({ length: max - min }, (_, i) => min + i + 1);
  return html`<svg class="profile-chart" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">${t.profile}</title>
<desc id="chart-desc">${t.chartLabel(model.scales.length)}</desc>
${
  model.norm.normed
    ? html`<rect x="${x(3.5)}" y="${TOP - 6}" width="${x(7.5) - x(3.5)}" height="${rows + 6}" fill="#e8edf3"></rect>
<text x="${(x(3.5) + x(7.5)) / 2}" y="14" text-anchor="middle" font-size="12" fill="#374151">${t.averageBand}</text>`
    : ''
}
${ticks.map(
  (v) => html`<line x1="${x(v)}" y1="${TOP - 6}" x2="${x(v)}" y2="${height - 10}" stroke="#d1d5db" stroke-width="1"></line>
<text x="${x(v)}" y="${TOP - 10}" text-anchor="middle" font-size="11" fill="#374151">${v}</text>`,
)}
${model.scales.map((s, i) => {
  const y = TOP + i * ROW + breaks[i]! * GAP;
  const v = value(s);
  // A domain's name heads its narrow scales: bold, from the left edge; theirs stay by the bars.
  const heading = grouped && !s.narrow;
  const mark = s.adverse ? html`<tspan class="adverse" fill="#92400e"> ${ADVERSE_MARK}</tspan>` : '';
  return html`<g${grouped ? html` class="${heading ? 'domain' : 'narrow'}"` : ''}>
${
  heading
    ? html`<text x="4" y="${y + 15}" font-size="13" font-weight="bold" fill="#111827">${s.name}${mark}</text>`
    : html`<text x="${LABEL - 8}" y="${y + 15}" text-anchor="end" font-size="13" fill="#111827">${s.name}${mark}</text>`
}
<rect x="${LABEL}" y="${y + 4}" width="${Math.max(2, x(v) - LABEL)}" height="${ROW - 8}" fill="#1d4ed8"></rect>
<text x="${x(v) + 6}" y="${y + 15}" font-size="12" fill="#111827">${model.norm.normed ? v : v.toFixed(2)}</text>
${model.norm.normed && s.stenBand ? html`<line class="sten-band" x1="${x(s.stenBand.low)}" y1="${y + ROW / 2}" x2="${x(s.stenBand.high)}" y2="${y + ROW / 2}" stroke="#111827" stroke-width="2"></line>` : ''}
</g>`;
})}
</svg>`;
}
