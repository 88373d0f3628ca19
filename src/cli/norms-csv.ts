import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadConfig } from '../config.js';
import { CsvError } from '../measurement/csv.js';
import { NORM_LIMITS, parseNormFile, textProblems, toNormFile } from '../measurement/norm-groups.js';
import { normGroupFromCsv } from '../measurement/norms-from-csv.js';
import { insertNormGroup } from '../measurement/norms-store.js';
import type { NormDescription } from '../measurement/types.js';
import { CliError, loadContent, print, withStore } from './shared.js';

/** `norms build --from-csv`: the group from a file of item responses, stored (inactive) or written as a norm file. */
export async function buildFromCsv(opts: {
  type: number;
  name: string;
  language: 'nl' | 'en';
  minSample: number;
  fromCsv: string;
  about?: string;
  description: NormDescription | undefined;
  out?: string;
  tenant?: string;
  from?: string;
  to?: string;
  json?: boolean;
}): Promise<void> {
  if (opts.tenant !== undefined || opts.from !== undefined || opts.to !== undefined)
    throw new CliError('--tenant, --from and --to select stored assessments: they do not go with --from-csv');
  if (opts.about !== undefined) {
    const [problem] = textProblems({ '--about': opts.about });
    if (problem) throw new CliError(problem);
  }
  let text: string;
  try {
    text = readFileSync(opts.fromCsv, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read ${opts.fromCsv}: ${(error as Error).message}`);
  }
  const build = async (instruments: ReturnType<typeof loadContent>) => {
    const instrument = instruments.instruments.get(opts.type);
    if (!instrument) throw new CliError(`--instrument must be one of ${[...instruments.instruments.keys()].join(', ')}`);
    try {
      const built = normGroupFromCsv({
        text,
        fileName: basename(opts.fromCsv),
        instrument,
        model: instruments.competences,
        language: opts.language,
        minSample: opts.minSample,
        name: opts.name,
        ...(opts.about ? { about: opts.about } : {}),
      });
      if (built.group.source.length > NORM_LIMITS.source)
        throw new CliError(`The group's source would be ${built.group.source.length} characters, more than ${NORM_LIMITS.source}: shorten --about`);
      if (opts.description) built.group = { ...built.group, description: opts.description };
      return { built, file: toNormFile(built.group, instrument) };
    } catch (error) {
      if (error instanceof CsvError) throw new CliError(`${opts.fromCsv} is ${error.message}`);
      throw error;
    }
  };
  const summary = (b: Awaited<ReturnType<typeof build>>['built']) => ({
    name: opts.name,
    instrument: opts.type,
    read: b.read,
    otherLanguage: b.otherLanguage,
    excluded: b.flagged,
    sampleSize: b.used,
  });
  if (opts.out !== undefined) {
    const { built, file } = await build(loadContent(loadConfig()));
    // The same checks an import makes: a written file always imports.
    const content = loadContent(loadConfig());
    parseNormFile(file, content.instruments, content.competences);
    writeFileSync(opts.out, JSON.stringify(file, null, 2) + '\n');
    print(
      !!opts.json,
      { ...summary(built), file: opts.out },
      `Wrote norm group "${opts.name}" to ${opts.out}: N = ${built.used} of ${built.read} respondents (${built.otherLanguage} in another language, ${built.flagged} flagged, left out).`,
    );
    return;
  }
  const out = await withStore(async (store, config) => {
    const { built } = await build(loadContent(config));
    return { id: await insertNormGroup(store, built.group), ...summary(built) };
  });
  print(
    !!opts.json,
    out,
    `Built norm group ${out.id} "${out.name}" from ${out.read} respondents: N = ${out.sampleSize} (${out.otherLanguage} in another language, ${out.excluded} flagged, left out).\nActivate it with: bin/assay norms activate ${out.id}`,
  );
}
