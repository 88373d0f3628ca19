import type { Command } from 'commander';
import { sweepRetention } from '../lifecycle/retention.js';
import { listErasures } from '../lifecycle/erasure-store.js';
import { eraseCandidate } from '../lifecycle/erase.js';
import { CliError, print, table, tenantId, withStore } from './shared.js';

export function candidateCommands(program: Command): void {
  const candidate = program.command('candidate').description("candidates' personal data: erasure and retention");

  candidate
    .command('erase')
    .description("erase a candidate's personal data everywhere (an erasure request); the ExternalId may be used again")
    .requiredOption('--external-id <id>', 'the candidate')
    .option('--json', 'print JSON')
    .action(async (opts: { externalId: string; json?: boolean }) => {
      const erased = await withStore((store) => eraseCandidate({ store }, opts.externalId, { erasedBy: 'cli', reason: 'request' }));
      if (!erased) throw new CliError(`No candidate "${opts.externalId}"`);
      print(!!opts.json, { externalId: opts.externalId, ...erased }, `Erased ${opts.externalId}: ${erased.assessments} assessments, ${erased.answers} answers`);
    });

  candidate
    .command('sweep')
    .description('erase now every candidate whose retention has run out (the server does this every RETENTION_SWEEP_INTERVAL_MS)')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const erased = await withStore((store, config) => sweepRetention(store, config.lifecycle.retentionDays));
      print(!!opts.json, { erased }, `Erased ${erased} candidates whose retention ran out`);
    });

  candidate
    .command('erasures')
    .description('the audit of erasures: when, by whom, how much; no personal data')
    .option('--tenant <tenant>', 'only this tenant (id or name)')
    .option('--json', 'print JSON')
    .action(async (opts: { tenant?: string; json?: boolean }) => {
      const rows = await withStore(async (store) => listErasures(store, opts.tenant ? await tenantId(store, opts.tenant) : undefined));
      const shown = rows.map((r) => ({
        erasedAt: r.erased_at,
        tenantId: r.tenant_id,
        erasedBy: r.erased_by,
        reason: r.reason,
        assessments: r.assessments,
        answers: r.answers,
      }));
      print(!!opts.json, shown, table(shown));
    });
}
