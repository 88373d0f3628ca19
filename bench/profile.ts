import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../src/platform/paths.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame lives: a package, a file of ours, or Node itself. */
function place(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  if (path.startsWith('node:')) return path;
  return relative(ROOT, path);
}

/**
 * The top self-time costs of the `--cpu-prof` profiles in `dir` (the main thread of the
 * server), by function and by where it lives, as shares of all samples.
 */
export function summariseProfiles(dir: string, top = 25): { byFunction: Array<[string, number]>; byPlace: Array<[string, number]>; ms: number } {
  const self = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let total = 0;
  // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (the event loop).
  for (const file of readdirSync(dir).filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = nodes.get(id)!;
      const dt = profile.timeDeltas[i] ?? 0;
      const { functionName, url, lineNumber } = node.callFrame;
      const key = `${functionName || '(anonymous)'} ${place(url)}${url ? `:${lineNumber + 1}` : ''}`;
      self.set(key, (self.get(key) ?? 0) + dt);
      byPlace.set(place(url), (byPlace.get(place(url)) ?? 0) + dt);
      total += dt;
    });
  }
  const share = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => [k, Math.round((1000 * v) / total) / 10] as [string, number]);
  return { byFunction: share(self), byPlace: share(byPlace), ms: Math.round(total / 1000) };
}
