import { Command } from 'commander';
import { backupCommands } from './backup.js';
import { candidateCommands } from './candidate.js';
import { consoleUserCommands } from './console-user.js';
import { keyCommands } from './key.js';
import { normsCommands } from './norms.js';
import { portalCommands } from './portal.js';
import { reportCommands } from './report.js';
import { serveCommands } from './serve.js';
import { isUserError } from './shared.js';
import { tenantCommands } from './tenant.js';
import { userCommands } from './user.js';
import { webhookCommands } from './webhook.js';
import { mailCommands } from './mail-listen.js';

const program = new Command('assay').description('Assay operator CLI. Reads the same environment variables as the server (see README).').showHelpAfterError();
serveCommands(program);
tenantCommands(program);
keyCommands(program);
userCommands(program);
consoleUserCommands(program);
normsCommands(program);
portalCommands(program);
reportCommands(program);
candidateCommands(program);
webhookCommands(program);
mailCommands(program);
backupCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (isUserError(error)) {
    process.stderr.write(`assay: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
