import type { Command } from 'commander';
import { revokeReportLinks } from '../reports/share-links-store.js';
import { CliError, print, withStore } from './shared.js';

export function reportCommands(program: Command): void {
  const report = program.command('report').description('assessment reports and their share links');

  report
    .command('revoke')
    .description("make every share link of an assessment's report stop working at once; new links (status lookup, results endpoint) work")
    .argument('<analysisId>', 'the assessment (an id that starts with - goes last, after --: revoke --json -- -abc)')
    .option('--json', 'print JSON')
    .action(async (analysisId: string, opts: { json?: boolean }) => {
      const done = await withStore((store) => revokeReportLinks(store, analysisId));
      if (!done) throw new CliError(`No completed assessment "${analysisId}" with a report`);
      print(!!opts.json, { analysisId, revoked: true }, `Share links of ${analysisId} revoked`);
    });
}
