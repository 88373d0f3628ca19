import type { Command } from 'commander';
import { normsBuildCommand } from './norms-build.js';
import { normsImportCommand } from './norms-import.js';
import { normsListCommand } from './norms-list.js';
import { normsShowCommand } from './norms-show.js';
import { normsActivateCommand } from './norms-activate.js';
import { normsDeactivateCommand } from './norms-deactivate.js';

/** The `norms` commands, one file each (norms-<command>.ts). */
export function normsCommands(program: Command): void {
  const norms = program.command('norms').description('norm groups: what stens and percentiles are measured against');
  normsBuildCommand(norms);
  normsImportCommand(norms);
  normsListCommand(norms);
  normsShowCommand(norms);
  normsActivateCommand(norms);
  normsDeactivateCommand(norms);
}
