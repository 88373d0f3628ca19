import { html, type Html } from '../platform/html.js';
import { ADVERSE_MARK, fairnessCells, type ReportModel } from './model.js';

/** The fairness section: per scale, d with its interval and both four-fifths ratios in the norm group; nothing without them. */
export function fairnessSection(m: ReportModel): Html | '' {
  if (!m.fairness?.length) return '';
  const t = m.t.fairness;
  return html`<section aria-labelledby="fairness">
<h2 id="fairness">${t.title}</h2>
<p>${t.intro}</p>
<p><strong>${t.advice}</strong></p>
<table>
<caption>${t.title}</caption>
<thead><tr><th scope="col">${m.t.scale}</th><th scope="col" class="num">d</th><th scope="col" class="num">${t.interval}</th><th scope="col" class="num">${t.ratioHigh}</th><th scope="col" class="num">${t.ratioLow}</th></tr></thead>
<tbody>
${m.fairness.map((f) => {
  const [d, interval, high, low] = fairnessCells(f);
  return html`<tr class="${['fairness', ...(f.narrow ? ['narrow'] : []), ...(f.adverse ? ['adverse'] : [])].join(' ')}"><th scope="row">${f.name}${f.adverse ? html`<span class="adverse" aria-hidden="true">${ADVERSE_MARK}</span>` : ''}</th><td class="num">${d}</td><td class="num">${interval}</td><td class="num">${high}</td><td class="num">${low}</td></tr>`;
})}
</tbody>
</table>
${m.fairness.some((f) => f.adverse) ? html`<p class="adverse-note">${ADVERSE_MARK} ${t.adverse}</p>` : ''}
</section>`;
}
