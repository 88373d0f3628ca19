import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/deadline.js';
import { freePort, inherited } from '../helpers/cli.js';
import { suiteOnEachDatabase } from '../helpers/harness.js';
import { eventually } from '../helpers/receiver.js';
import { ROOT } from '../../src/platform/paths.js';

/**
 * The shell commands of the README's "Try it", in order: its `sh` blocks up to the next section,
 * continuation lines joined and comment lines left out. Its subsection on lost credentials is not
 * part of the path.
 */
export function tryItCommands(readme: string): string[] {
  const start = readme.indexOf('## Try it\n');
  assert.ok(start >= 0, 'the README has a "Try it" section');
  const rest = readme.slice(start + 1);
  const section = rest.slice(0, rest.search(/\n##+ /));
  const commands: string[] = [];
  for (const [, block] of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block!.replace(/\\\n\s*/g, ' ');
    commands.push(...joined.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#')));
  }
  return commands;
}

/** A command that keeps running: the listeners and the server, each a terminal of its own. */
const LONG_RUNNING = /&\s*$|bin\/assay (webhook listen|mail listen|serve)\b|npm start\s*$/;

interface Background {
  child: ChildProcess;
  output(): string;
}

suiteOnEachDatabase("the README's Try it, run as written", { on: 'sqlite', process: true, start: false, tenant: false }, ({ freshDir }) => {
  const running: Background[] = [];
  const stopAll = async () => {
    for (const b of running.splice(0)) {
      if (b.child.exitCode !== null || b.child.signalCode !== null) continue;
      const exited = new Promise((resolve) => b.child.once('exit', resolve));
      // Its own process group: the shell and the bin/assay it started.
      process.kill(-b.child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-b.child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };

  test('from the listeners to the invitation e-mail and the completion webhook, portal walk as the candidate', { timeout: 240_000 }, async () => {
    const commands = tryItCommands(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    // A fresh folder standing for a fresh clone: the repository's files, its own ./data.
    const cwd = freshDir();
    for (const f of ['bin', 'dist', 'node_modules', 'package.json', 'content', 'src']) symlinkSync(join(ROOT, f), join(cwd, f));
    // What the README says to change when a port is taken: the listeners' ports and the server's PORT.
    const [mailPort, hookPort, port] = [await freePort(), await freePort(), await freePort()];
    const ports = (c: string) =>
      c
        .replace(/--port 2525\b/g, `--port ${mailPort}`)
        .replace(/127\.0\.0\.1:2525\b/g, `127.0.0.1:${mailPort}`)
        .replace(/--port 4000\b/g, `--port ${hookPort}`)
        .replace(/127\.0\.0\.1:4000\b/g, `127.0.0.1:${hookPort}`);
    // The terminal's environment: nothing of the test run's but PATH, and the event-loop guard off, so
    // that a machine busy with other tests does not shed the README's requests (its subject is not shedding).
    let env: Record<string, string> = { ...inherited(), HOME: cwd, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' };
    const shell = (command: string) => spawn('bash', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const outputs: string[] = [];
    let server: Background | undefined;
    let assessment: { AnalysisId: string; AssessmentUrl: string } | undefined;

    try {
      for (const raw of commands) {
        let command = ports(raw);
        if (LONG_RUNNING.test(command)) {
          command = command.replace(/&\s*$/, '');
          if (/bin\/assay serve|npm start/.test(command)) command = `PORT=${port} ${command}`;
          const child = shell(command);
          let out = '';
          child.stdout!.on('data', (d: Buffer) => (out += d));
          child.stderr!.on('data', (d: Buffer) => (out += d));
          const b = { child, output: () => out };
          running.push(b);
          if (/serve|npm start/.test(command)) {
            server = b;
            // "Paste the two commands the banner printed": its export line, then the README's own curls.
            const line = await eventually(async () => /^ {2}(export AUTH=.*)$/m.exec(out)?.[1], 60_000, `the banner:\n${out}`);
            env = await exported(line, env, cwd);
          } else await eventually(async () => (/(Listening|Catching mail) on /.test(out) ? true : undefined), 30_000, `${command} listening:\n${out}`);
          continue;
        }
        // The placeholders the README says to fill from what the create call printed.
        if (command.includes('<AssessmentUrl>') || command.includes('<AnalysisId>')) {
          assert.ok(assessment, `"${raw}" comes after the create call`);
          command = command.replace('<AssessmentUrl>', assessment.AssessmentUrl).replace('<AnalysisId>', assessment.AnalysisId);
        }
        if (command.startsWith('export ')) {
          env = await exported(command, env, cwd);
          continue;
        }
        const r = await finished(shell(command));
        assert.equal(r.code, 0, `${raw}\n${r.stdout}${r.stderr}`);
        outputs.push(r.stdout);
        if (command.startsWith('curl') && !command.includes(' -o ')) {
          // The spec's envelope with a 200 or 201, or (the results, in TMA's format) no error.
          const body = JSON.parse(r.stdout) as { StatusCode?: number; Data: unknown; error?: unknown };
          assert.ok(body.StatusCode === undefined ? body.error === undefined : body.StatusCode === 200 || body.StatusCode === 201, `${raw}\n${r.stdout}`);
          if (/api\/anonymous\/assessment\s*$/.test(command)) assessment = body.Data as typeof assessment;
        }
      }

      assert.ok(server && assessment, 'the README started a server and created an assessment');
      const walked = outputs.find((o) => o.includes('Ready to finish?: finished'));
      assert.ok(walked, 'portal walk ran to the end');
      const [mail, hook] = running;
      // The invitation went to the candidate's address, with the assessment's (personal) link.
      const link = `link: ${new URL(assessment.AssessmentUrl).origin}/anonymous/analyse/${assessment.AnalysisId}/`;
      await eventually(async () => (mail!.output().includes(link) ? true : undefined), 30_000, `the invitation:\n${mail!.output()}`);
      assert.match(mail!.output(), /mail from assessments@example\.com to ada@example\.com/);
      // The completion webhook, with the credentials the README gave the receiver.
      const body = `body: {"Analysis_Id":"${assessment.AnalysisId}","External_Id":"cand-1"}`;
      await eventually(async () => (hook!.output().includes(body) ? true : undefined), 30_000, `the webhook:\n${hook!.output()}`);
      assert.match(hook!.output(), /Basic credentials matched/);
      assert.match(hook!.output(), /answered 200/);
      assert.equal(readFileSync(join(cwd, 'report.pdf')).subarray(0, 5).toString(), '%PDF-');
      const status = JSON.parse(outputs.find((o) => o.includes('"Status"'))!) as { Data: { Status: string } };
      assert.equal(status.Data.Status, 'Completed');
    } finally {
      await stopAll();
    }
  });
});

/** The environment after `export …`, as the README's terminal would have it. */
async function exported(line: string, env: Record<string, string>, cwd: string): Promise<Record<string, string>> {
  const r = await finished(spawn('bash', ['-c', `${line}\nenv -0`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  assert.equal(r.code, 0, r.stderr);
  return Object.fromEntries(
    r.stdout
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

async function finished(child: ChildProcess, ms = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d));
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
