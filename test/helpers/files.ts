import { execFileSync } from 'node:child_process';

const SCAN = `
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { dir, needles } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const forms = needles.map((n) => Buffer.from(n, 'base64'));
const walk = (d) => readdirSync(d).flatMap((name) => (statSync(join(d, name)).isDirectory() ? walk(join(d, name)) : [join(d, name)]));
const out = walk(dir).map((file) => {
  const bytes = readFileSync(file);
  return { file, counts: forms.map((form) => { let n = 0; for (let at = bytes.indexOf(form); at !== -1; at = bytes.indexOf(form, at + 1)) n++; return n; }) };
});
process.stdout.write(JSON.stringify(out));
`;

/**
 * How often each needle occurs in each file under `dir`, counted by a child process. Reading
 * a live SQLite file from the server's own process would drop that process's POSIX locks on it
 * (closing any descriptor of a file drops them all); a CLI command would then think itself the
 * last connection and delete the WAL the server still reads.
 */
export function scanFiles(dir: string, needles: readonly Buffer[]): Array<{ file: string; counts: number[] }> {
  const input = JSON.stringify({ dir, needles: needles.map((n) => n.toString('base64')) });
  return JSON.parse(execFileSync(process.execPath, ['-e', SCAN], { input, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 }).toString('utf8'));
}
