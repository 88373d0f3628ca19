import type { Command } from 'commander';
import {
  buildNormTable,
  DEFAULT_MIN_SAMPLE,
  descriptionProblems,
  MIN_SAMPLE_FLOOR,
  NORM_LIMITS,
  textProblems,
  trimmedDescription,
} from '../measurement/norm-groups.js';
import { insertNormGroup, normSample } from '../measurement/norms-store.js';
import type { NormDescription } from '../measurement/types.js';
import { buildFromCsv } from './norms-csv.js';
import { CliError, loadContent, print, tenantId, withStore } from './shared.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function date(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (!DATE.test(value) || Number.isNaN(Date.parse(value))) throw new CliError(`${option} must be a date as YYYY-MM-DD, got "${value}"`);
  return value;
}

/** A norm group speaks for one version of the content: a sample that mixes versions is refused. */
function oneContentVersion(versions: ReadonlyArray<string | null>): string {
  const distinct = [...new Set(versions.map((v) => v ?? 'unknown'))];
  if (distinct.length > 1) {
    throw new CliError(
      `The sample mixes content versions (${distinct.sort().join(', ')}): narrow it with --from and --to to one version ("unknown": completed before Assay recorded it)`,
    );
  }
  if (distinct[0] === 'unknown') throw new CliError('The sample was completed before Assay recorded content versions: build from later completions (--from)');
  return distinct[0] ?? 'unknown';
}

/** --description-en and --description-nl as the group's description; undefined with neither. */
function descriptionOptions(opts: { descriptionEn?: string; descriptionNl?: string }): NormDescription | undefined {
  const given: NormDescription = {
    ...(opts.descriptionEn !== undefined ? { en: opts.descriptionEn } : {}),
    ...(opts.descriptionNl !== undefined ? { nl: opts.descriptionNl } : {}),
  };
  if (Object.keys(given).length === 0) return undefined;
  const [problem] = descriptionProblems(given, (lang) => `--description-${lang}`);
  if (problem) throw new CliError(problem);
  return trimmedDescription(given);
}

/** `norms build`: a norm group from stored completions or from a CSV of item responses. */
export function normsBuildCommand(norms: Command): void {
  norms
    .command('build')
    .description(
      'build a norm group from completed assessments whose results may be used (released or not asked, without integrity flags), or from a CSV of item responses (--from-csv); it starts inactive',
    )
    .requiredOption('--instrument <type>', '0 (TMA170), 1 (TMA312) or 2 (SPI)')
    .requiredOption('--name <name>', 'a name that says whose norms these are')
    .requiredOption('--language <nl|en>', 'only assessments completed in this language: a translation needs norms of its own')
    .option('--tenant <tenant>', "only this tenant's assessments (id or name)")
    .option('--from <date>', 'completed on or after this date (YYYY-MM-DD)')
    .option('--to <date>', 'completed before this date (YYYY-MM-DD)')
    .option('--min-sample <n>', `refuse with fewer usable assessments than this (at least ${MIN_SAMPLE_FLOOR})`, String(DEFAULT_MIN_SAMPLE))
    .option(
      '--from-csv <file>',
      'build from this CSV of item responses instead of stored assessments: a header of item ids, optional gender, age and language columns, one respondent a row (docs/RESULTS.md "Norm groups")',
    )
    .option('--about <text>', "with --from-csv: who the respondents are and where the data comes from; the group's source starts with it")
    .option('--description-en <text>', 'who the sample is in a sentence or two, in English: the report shows it under the group (at most 300 characters)')
    .option('--description-nl <text>', 'the same in Dutch, for reports in Dutch (without it they show the English)')
    .option('--out <file>', 'with --from-csv: write the group as a norm file instead of storing it (no database needed)')
    .option('--json', 'print one JSON object')
    .action(
      async (opts: {
        instrument: string;
        name: string;
        language: string;
        tenant?: string;
        from?: string;
        to?: string;
        minSample: string;
        fromCsv?: string;
        about?: string;
        descriptionEn?: string;
        descriptionNl?: string;
        out?: string;
        json?: boolean;
      }) => {
        const type = Number(opts.instrument);
        const minSample = Number(opts.minSample);
        if (!Number.isInteger(minSample) || minSample < MIN_SAMPLE_FLOOR)
          throw new CliError(`--min-sample must be a whole number of at least ${MIN_SAMPLE_FLOOR}`);
        if (!opts.name.trim() || opts.name.length > NORM_LIMITS.name) throw new CliError(`--name must be 1 to ${NORM_LIMITS.name} characters`);
        const [nameProblem] = textProblems({ '--name': opts.name });
        if (nameProblem) throw new CliError(nameProblem);
        if (opts.language !== 'nl' && opts.language !== 'en') throw new CliError('--language must be nl or en');
        const language = opts.language;
        const from = date(opts.from, '--from');
        const to = date(opts.to, '--to');
        const description = descriptionOptions(opts);
        if (opts.fromCsv !== undefined) return buildFromCsv({ ...opts, fromCsv: opts.fromCsv, type, minSample, language, description });
        if (opts.about !== undefined || opts.out !== undefined) throw new CliError('--about and --out go with --from-csv');
        const out = await withStore(async (store, config) => {
          const { instruments, competences } = loadContent(config);
          const instrument = instruments.get(type);
          if (!instrument) throw new CliError('--instrument must be 0 (TMA170), 1 (TMA312) or 2 (SPI)');
          const tenant = opts.tenant ? await tenantId(store, opts.tenant) : undefined;
          const sample = await normSample(store, {
            assessmentType: type,
            language,
            ...(tenant ? { tenantId: tenant } : {}),
            ...(from ? { from } : {}),
            ...(to ? { to } : {}),
          });
          const contentVersion = oneContentVersion(sample.map((m) => m.contentVersion ?? null));
          const built = buildNormTable(sample, instrument, competences, minSample);
          const scope = [
            tenant ? `tenant ${opts.tenant}` : 'all tenants',
            `in ${language === 'nl' ? 'Dutch' : 'English'}`,
            `content version ${contentVersion}`,
            from ? `from ${from}` : '',
            to ? `before ${to}` : '',
          ]
            .filter(Boolean)
            .join(', ');
          const id = await insertNormGroup(store, {
            name: opts.name,
            assessmentType: type,
            source: `Built by Assay from ${built.used} completed ${instrument.code} assessments (${scope}); ${built.excluded} with integrity flags left out.`,
            sampleSize: built.used,
            collectedFrom: from ?? null,
            collectedTo: to ?? null,
            illustrative: false,
            contentVersion,
            language,
            table: built.table,
            sample: built.sample,
            ...(description ? { description } : {}),
          });
          return { id, name: opts.name, instrument: instrument.code, sampleSize: built.used, excluded: built.excluded };
        });
        print(
          !!opts.json,
          out,
          `Built norm group ${out.id} "${out.name}" for ${out.instrument} from ${out.sampleSize} assessments (${out.excluded} flagged left out).\nActivate it with: bin/assay norms activate ${out.id}`,
        );
      },
    );
}
