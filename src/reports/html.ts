import { html, pageHead, type Html } from '../platform/html.js';
import type { Language } from '../measurement/instruments/types.js';
import { profileChart } from './chart.js';
import { fairnessSection } from './html-fairness.js';
import { ADVERSE_MARK, bandText, bandWords, domainGroups, hasBands, howToRead, rawRange, type ReportModel, type ReportScale } from './model.js';
import { REPORT_TEXTS } from './texts.js';

const num = (v: number | undefined) => (v === undefined ? '–' : String(v));

function page(lang: Language, title: string, body: Html): Html {
  return html`${pageHead({ lang, title, stylesheets: ['/assets/report/report.css'] })}
<body>
<main id="main">
${body}
</main>
</body>
</html>`;
}

/** The report as an accessible HTML page; `pdfHref` adds the download link (share links). */
export function reportPage(m: ReportModel, opts: { pdfHref?: string; generatedAt: string }): Html {
  const { t } = m;
  const reliable = m.competences.some((c) => c.reliability !== undefined);
  const bands = hasBands(m);
  return page(
    m.lang,
    `${t.title}: ${m.candidateName}`,
    html`<header>
<h1>${t.title}</h1>
<p class="confidential">${t.confidential}</p>
<dl class="facts">
<dt>${t.candidate}</dt><dd>${m.candidateName}</dd>
<dt>${t.instrument}</dt><dd>${m.instrumentName}</dd>
<dt>${t.completed}</dt><dd>${m.completedOn}</dd>
<dt>${t.normGroup}</dt><dd>${m.norm.line}${m.norm.about ? html`<span class="norm-source">${m.norm.about}</span>` : ''}</dd>
</dl>
${m.norm.illustrative ? html`<p class="notice">${t.illustrative}</p>` : ''}
${m.translationNote ? html`<p class="notice translation">${m.translationNote}</p>` : ''}
${m.formNote ? html`<p class="notice form">${m.formNote}</p>` : ''}
${opts.pdfHref ? html`<a class="pdf-link" href="${opts.pdfHref}" download>${t.pdf}</a>` : ''}
</header>
<section aria-labelledby="profile">
<h2 id="profile">${t.profile}</h2>
<p>${m.norm.normed ? t.profileIntro : t.profileRaw(rawRange(m))}</p>
${bands ? html`<p>${t.stenBandExplained}</p>` : ''}
${profileChart(m)}
<table>
<caption>${t.tableCaption}</caption>
<thead><tr><th scope="col">${t.scale}</th><th scope="col" class="num">${t.sten}</th><th scope="col" class="num">${t.percentile}</th><th scope="col" class="num">${t.raw(rawRange(m))}</th>${bands ? html`<th scope="col" class="num">${t.stenBand}</th>` : ''}<th scope="col">${t.band}</th></tr></thead>
${scaleRows(m, bands)}
</table>
${m.scales.some((s) => s.adverse) ? html`<p class="adverse-note" id="adverse-note">${ADVERSE_MARK} ${t.fairness.adverse}</p>` : ''}
</section>
${fairnessSection(m)}
<section aria-labelledby="meaning">
<h2 id="meaning">${m.norm.normed ? t.interpretation : t.scalesMeaning}</h2>
<dl class="interpretations">
${m.scales.map((s) => html`<dt>${s.name}${s.band ? html` <span class="band">(${bandWords(s, t)})</span>` : ''}</dt><dd>${s.interpretation}</dd>`)}
</dl>
</section>
${
  m.competences.length
    ? html`<section aria-labelledby="competences">
<h2 id="competences">${t.competences}</h2>
<p>${t.competencesIntro}</p>
<table>
<caption>${t.competences}</caption>
<thead><tr><th scope="col">${t.competence}</th><th scope="col" class="num">${t.sten}</th><th scope="col" class="num">${t.percentile}</th><th scope="col" class="num">${t.raw(rawRange(m))}</th>${reliable ? html`<th scope="col" class="num">${t.compositeReliability}</th>` : ''}</tr></thead>
<tbody>
${m.competences.map((c) => html`<tr><th scope="row">${c.name}<div class="competence-description">${c.description}</div></th><td class="num">${num(c.sten)}</td><td class="num">${num(c.percentile)}</td><td class="num">${c.raw.toFixed(2)}</td>${reliable ? html`<td class="num">${c.reliability === undefined ? '–' : c.reliability.toFixed(2)}</td>` : ''}</tr>`)}
</tbody>
</table>
</section>`
    : ''
}
<section aria-labelledby="quality">
<h2 id="quality">${t.quality}</h2>
<p>${m.consistency} ${t.consistencyHelp}</p>
${m.flags.length ? html`<ul>${m.flags.map((f) => html`<li>${f.text}</li>`)}</ul><p>${t.flagAdvice}</p>` : html`<p>${t.noFlags}</p>`}
</section>
<section aria-labelledby="how">
<h2 id="how">${t.howToRead}</h2>
<ul>${howToRead(m).map((i) => html`<li>${i}</li>`)}</ul>
</section>
<section aria-labelledby="limits">
<h2 id="limits">${t.limits}</h2>
<ul>${t.limitsItems.map((i) => html`<li>${i}</li>`)}</ul>
</section>
<footer><p>${t.generated(opts.generatedAt)}</p></footer>`,
  );
}

/** The score table's body: one per domain, headed by it, when the instrument has narrow scales. */
function scaleRows(m: ReportModel, bands: boolean): Html {
  const row = (s: ReportScale, kind: 'domain' | 'narrow' | '') =>
    html`<tr${kind ? html` class="${kind}"` : ''}><th scope="${kind === 'domain' ? 'rowgroup' : 'row'}">${s.name}${adverseMark(s, m)}</th><td class="num">${num(s.sten)}</td><td class="num">${num(s.percentile)}</td><td class="num">${s.raw.toFixed(2)}</td>${bands ? html`<td class="num">${bandText(s)}</td>` : ''}<td>${bandWords(s, m.t)}</td></tr>`;
  const groups = domainGroups(m);
  if (!groups)
    return html`<tbody>
${m.scales.map((s) => row(s, ''))}
</tbody>`;
  return html`${groups.map(
    (g) => html`<tbody class="domain">
${row(g.domain, 'domain')}
${g.narrow.map((s) => row(s, 'narrow'))}
</tbody>`,
  )}`;
}

/** After an adverse scale's name: the mark, linked to the sentence under the table, which screen readers get in full. */
function adverseMark(s: ReportScale, m: ReportModel): Html | '' {
  return s.adverse
    ? html`<a class="adverse" href="#adverse-note" title="${m.t.fairness.adverse}"><span aria-hidden="true">${ADVERSE_MARK}</span><span class="visually-hidden">${m.t.fairness.adverse}</span></a>`
    : '';
}

/** The page a share link shows while the candidate has not released the results: not even their name. */
export function withheldPage(lang: Language): Html {
  const t = REPORT_TEXTS[lang];
  return page(lang, t.withheldTitle, html`<h1>${t.withheldTitle}</h1><p>${t.withheld}</p>`);
}

/** The HTML 404 for a link that is tampered with, expired or revoked: it says no more than that. */
export function linkNotFoundPage(lang: Language): Html {
  const title = lang === 'nl' ? 'Rapport niet gevonden' : 'Report not found';
  const text =
    lang === 'nl'
      ? 'Deze rapportlink is niet (meer) geldig. Vraag een nieuwe link aan in uw wervingssysteem.'
      : 'This report link is not valid, or no longer. Ask your recruitment system for a new link.';
  return page(lang, title, html`<h1>${title}</h1><p>${text}</p>`);
}
