import type { Command } from 'commander';
import { ASSESSMENT_TYPES, type AssessmentTypeNumber } from '../assessments/rules.js';
import { readContent } from '../measurement/load.js';
import {
  buildNormTable,
  DEFAULT_MIN_SAMPLE,
  descriptionProblems,
  MIN_SAMPLE_FLOOR,
  NORM_LIMITS,
  parseNormFile,
  textProblems,
  toNormFile,
  trimmedDescription,
} from '../measurement/norm-groups.js';
import { normSheet, reachableStensOf } from '../measurement/norm-sheet.js';
import {
  activateNormGroup,
  clearPortalNormGroup,
  deactivateNormDefault,
  insertNormGroup,
  listNormGroups,
  normSample,
  setPortalNormGroup,
  showNormGroup,
} from '../measurement/norms-store.js';
import type { NormDescription } from '../measurement/types.js';
import { buildFromCsv } from './norms-csv.js';
import { CliError, loadContent, portalKey, print, table, tenantId, withStore } from './shared.js';

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

export function normsCommands(program: Command): void {
  const norms = program.command('norms').description('norm groups: what stens and percentiles are measured against');

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

  norms
    .command('import')
    .description('import a norm group from a norm file (docs/RESULTS.md "Norm groups"); it starts inactive')
    .argument('<file>', 'a JSON file in the assay-norms/1 format')
    .option('--json', 'print one JSON object')
    .action(async (file: string, opts: { json?: boolean }) => {
      const out = await withStore(async (store, config) => {
        const { instruments, competences } = loadContent(config);
        const group = parseNormFile(readContent(file), instruments, competences);
        return { id: await insertNormGroup(store, group), name: group.name, sampleSize: group.sampleSize };
      });
      print(!!opts.json, out, `Imported norm group ${out.id} "${out.name}" (n = ${out.sampleSize}).\nActivate it with: bin/assay norms activate ${out.id}`);
    });

  norms
    .command('list')
    .description('list norm groups: which is active per instrument, and how many portals chose each')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const rows = await withStore((store) => listNormGroups(store));
      const shown = rows.map((r) => ({
        id: r.id,
        name: r.name,
        instrument: ASSESSMENT_TYPES[r.assessment_type as AssessmentTypeNumber] ?? String(r.assessment_type),
        sampleSize: r.sample_size,
        collectedFrom: r.collected_from,
        collectedTo: r.collected_to,
        illustrative: r.illustrative === 1,
        active: r.active === 1,
        portals: Number(r.portals ?? 0),
      }));
      print(!!opts.json, shown, table(shown));
    });

  norms
    .command('show')
    .description("a norm group's technical sheet: its sample, and each scale's mean, SD, reliability and standard error of measurement")
    .argument('<id>', 'norm group id (see norms list)')
    .option('--json', 'print the group as a norm file, with its id and whether it is active')
    .action(async (id: string, opts: { json?: boolean }) => {
      const out = await withStore(async (store, config) => {
        const group = await showNormGroup(store, id);
        if (!group) throw new CliError(`No norm group "${id}"`);
        const { instruments, competences } = loadContent(config);
        const instrument = instruments.get(group.assessmentType)!;
        return {
          json: { id: group.id, active: group.active, ...toNormFile(group, instrument), reachableStens: reachableStensOf(group, instrument) },
          text: normSheet(group, instrument, competences),
        };
      });
      print(!!opts.json, out.json, out.text);
    });

  norms
    .command('activate')
    .description("make a group the default for its instrument, or one portal's choice; later completions use it, earlier results keep theirs")
    .argument('<id>', 'norm group id (see norms list)')
    .option('--portal-domain <url>', 'only for the portal (API key) on this domain')
    .option('--key <key>', 'only for this API key (id or prefix)')
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { portalDomain?: string; key?: string; json?: boolean }) => {
      const forPortal = opts.portalDomain !== undefined || opts.key !== undefined;
      const done = await withStore(async (store) => {
        if (!forPortal) return activateNormGroup(store, id);
        return setPortalNormGroup(store, (await portalKey(store, opts)).id, id);
      });
      if (!done) throw new CliError(`No norm group "${id}"`);
      print(
        !!opts.json,
        { normGroupId: id, activated: true, portal: forPortal },
        forPortal ? `Norm group ${id} is now that portal's choice` : `Norm group ${id} is now the default for its instrument`,
      );
    });

  norms
    .command('deactivate')
    .description("clear an instrument's default group, or one portal's own choice; later completions then use the default, or no norms at all")
    .requiredOption('--instrument <type>', 'the instrument: 0 (TMA170), 1 (TMA312) or 2 (SPI)')
    .option('--portal-domain <url>', 'only clear the choice of the portal (API key) on this domain')
    .option('--key <key>', 'only clear the choice of this API key (id or prefix)')
    .option('--json', 'print JSON')
    .action(async (opts: { instrument: string; portalDomain?: string; key?: string; json?: boolean }) => {
      const type = Number(opts.instrument);
      const forPortal = opts.portalDomain !== undefined || opts.key !== undefined;
      const cleared = await withStore(async (store, config) => {
        if (!loadContent(config).instruments.has(type)) throw new CliError('--instrument must be 0 (TMA170), 1 (TMA312) or 2 (SPI)');
        return forPortal ? clearPortalNormGroup(store, (await portalKey(store, opts)).id, type) : deactivateNormDefault(store, type);
      });
      const what = forPortal ? "that portal's own choice" : 'the default group';
      print(
        !!opts.json,
        { instrument: type, portal: forPortal, cleared: cleared > 0 },
        cleared > 0
          ? `Cleared ${what} for instrument ${type}`
          : `Instrument ${type} had no ${forPortal ? 'choice of that portal' : 'default group'}: nothing changed`,
      );
    });
}
