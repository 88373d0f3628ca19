import { execFileSync } from 'node:child_process';

const INSTALL = 'apt-get install -y r-base-core r-cran-psych r-cran-psychtools r-cran-jsonlite (.ci/run does this)';

/**
 * Runs an R script with Rscript and returns what it prints: R's psych package is the oracle for
 * psychometric figures. A machine without R fails the test with how to install it, never skips.
 */
export function runR(script: string, timeoutMs = 120_000): string {
  try {
    execFileSync('Rscript', ['--version'], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    throw new Error(`Rscript is not installed: ${INSTALL}`);
  }
  try {
    return execFileSync('Rscript', ['--vanilla', '-e', script], {
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    const stderr = String((e as { stderr?: unknown }).stderr ?? '');
    if (/there is no package called/.test(stderr)) throw new Error(`An R package is missing: ${INSTALL}\n${stderr}`);
    throw e;
  }
}
